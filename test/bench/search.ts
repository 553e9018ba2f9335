/**
 * `npm run bench -- search`: what the open-jobs search engine costs in one search function's
 * memory (issue 46, docs/decisions/0325) at 1,000, 10,000 and 100,000 open jobs in a market.
 *
 * Per size: the time to index every job (what a new search function does once, after reading
 * the documents), the heap it holds, the time a post (a document added) and a search take, and
 * the DynamoDB capacity a post writes and a new function reads, from the documents' sizes (a
 * write unit per KB; half a read unit per 4 KB, the eventually consistent reads it makes).
 * Each beside its budget; docs/scale.md says where one market outgrows it.
 */
import { areaOf, type SearchEntry } from '../../functions/search/search-documents.js';
import { JobSearchIndex, type SearchDocument } from '../../functions/search/search-engine.js';
import { JOB_CATEGORIES } from '../../shared/categories.js';
import { distanceMiles } from '../../shared/notifications.js';
import { percentile, printTable } from './report.js';

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const SEARCHES = Number(process.env.BENCH_ROUNDS ?? 200);

const WORDS = ['move', 'sofa', 'garden', 'fence', 'paint', 'clean', 'kitchen', 'garage', 'boxes', 'shelves', 'lawn', 'dog', 'deliver', 'assemble', 'desk', 'party', 'chairs', 'window', 'gutter', 'leak', 'dishwasher', 'plumbing', 'ladder', 'drywall', 'tile', 'grout', 'hedge', 'mulch', 'attic', 'closet'];
const FILLER = ['the', 'house', 'needs', 'help', 'with', 'two', 'rooms', 'upstairs', 'bring', 'tools', 'parking', 'available', 'weekend', 'morning', 'careful', 'heavy', 'items', 'small', 'yard', 'back'];
const pick = <T>(list: readonly T[], i: number) => list[i % list.length]!;

/** A realistic job: a three-word title, a description of about 80 words, two skills, a place in the Austin area. */
function syntheticJob(i: number): SearchEntry {
  const title = `${pick(WORDS, i)} ${pick(WORDS, i * 7 + 3)} job ${i}`;
  const description = Array.from({ length: 80 }, (_, w) => (w % 9 === 0 ? pick(WORDS, i * 13 + w) : pick(FILLER, i + w * 3))).join(' ');
  const category = pick(JOB_CATEGORIES, i);
  const skills = [pick(WORDS, i * 5 + 1), pick(WORDS, i * 11 + 2)];
  const point = { latitude: 30.27 + ((i % 97) - 48) * 0.01, longitude: -97.74 + ((i % 89) - 44) * 0.012 };
  const document: SearchDocument = { id: `job-${i}`, title, tags: [category, ...skills].join(' '), description, location: 'Austin, TX', category, posterId: `poster-${i % 400}`, createdAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString() };
  return {
    document,
    card: { title, description: description.slice(0, 300), location: 'Austin, TX', payment: 5000, postedAmount: 5500, status: 'open', posterId: document.posterId, skills, imageKeys: [] },
    area: areaOf(point),
  };
}

/** What one market's index may cost at its largest size (100,000 jobs). */
const BUDGET = { searchP50Ms: 50, postMs: 5, heapMb: 1536 };
const againstBudget = (value: number, budget: number, digits = 1) => `${value.toFixed(digits)} ${value <= budget ? `≤ ${budget} ok` : `> ${budget} OVER`}`;

const QUERIES = [
  { name: 'a word', text: 'garden' },
  { name: 'part of a word', text: 'washer' },
  { name: 'a typo', text: 'plumbng' },
  { name: 'two words', text: 'garden fence' },
];

function heapMb(): number {
  globalThis.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

export async function runSearchBench(): Promise<void> {
  if (!globalThis.gc) console.log('(run with node --expose-gc for exact heap figures: `node --expose-gc --import tsx test/bench/index.ts search`)');
  const rows: string[][] = [];
  for (const size of SIZES) {
    const entries = Array.from({ length: size }, (_, i) => syntheticJob(i));
    const documentBytes = entries.reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify({ jobId: entry.document.id, changedAt: entry.document.createdAt, entry })) + 120, 0);
    const before = heapMb();
    const started = performance.now();
    const index = new JobSearchIndex();
    for (const entry of entries) index.put(entry.document);
    const buildMs = performance.now() - started;
    const heldMb = heapMb() - before;

    const postTimes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const entry = syntheticJob(size + i);
      const at = performance.now();
      index.put(entry.document);
      postTimes.push(performance.now() - at);
    }
    const searchTimes: number[] = [];
    const areas = new Map(entries.map((entry) => [entry.document.id, entry.area!]));
    const me = { latitude: 30.27, longitude: -97.74 };
    for (let round = 0; round < SEARCHES; round++) {
      const query = pick(QUERIES, round);
      const near = round % 2 === 1;
      const at = performance.now();
      const withinTenMiles = (document: SearchDocument) => {
        const area = areas.get(document.id);
        return area !== undefined && distanceMiles(me, area) <= 10;
      };
      index.match(query.text, near ? withinTenMiles : undefined);
      searchTimes.push(performance.now() - at);
    }
    postTimes.sort((a, b) => a - b);
    searchTimes.sort((a, b) => a - b);
    const averageKb = documentBytes / size / 1024;
    rows.push([
      size.toLocaleString('en-US'),
      (buildMs / 1000).toFixed(1),
      size === Math.max(...SIZES) ? againstBudget(heldMb, BUDGET.heapMb, 0) : heldMb.toFixed(0),
      againstBudget(percentile(postTimes, 50), BUDGET.postMs, 2),
      size === Math.max(...SIZES) ? againstBudget(percentile(searchTimes, 50), BUDGET.searchP50Ms) : percentile(searchTimes, 50).toFixed(1),
      percentile(searchTimes, 99).toFixed(1),
      Math.ceil(averageKb).toString(),
      (documentBytes / 1024 / 1024).toFixed(0),
      Math.ceil((documentBytes / 4096) * 0.5).toLocaleString('en-US'),
    ]);
  }
  console.log(`\nThe open-jobs engine in one function's memory; ${SEARCHES} searches per size (words, half of them within 10 mi)\n`);
  printTable(['open jobs', 'index all s', 'heap MB', 'post ms p50', 'search ms p50', 'search p99', 'WCU/post', 'MB read on start', 'RCU on start'], rows);
}
