import { isDeepStrictEqual } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { JobCardSummary, Page } from '../../shared/api.js';
import type { JobCategory } from '../../shared/categories.js';
import { categoryTerm, prefixes, searchWords } from '../../shared/search.js';
import { batchGet, batchWrite } from '../lib/batch.js';
import { db, decodeCursor, encodeCursor, queryAll, tableName } from '../lib/db.js';
import { keys, timeOrdered, timeOrderedParts, type ItemKey } from '../table.js';
import { getJob, jobCardOf, listJobsByStatus, toJobCard, type JobCardItem, type JobItem } from '../jobs/jobs.js';

/**
 * The open-jobs search index: an inverted index of term items in each open job's partition
 * (docs/data-model.md, pattern 7). Title, category, location and skills words are indexed
 * with their prefixes (so "clean" finds "cleaning"); the first description words in full.
 * Every term item carries all the job's terms and the job's card, so a search is a Query on
 * the most selective term's partition, filtered on the other terms, and its page is the
 * items' cards: no read of the jobs themselves.
 */
const MAX_DESCRIPTION_WORDS = 60;
/** Queries one page of a filtered search may take before it answers with what it found. */
const MAX_READS_PER_PAGE = 5;
/** Items one page of a filtered search may read, as a multiple of the page's size: what bounds its cost. */
const READ_BUDGET_IN_PAGES = 5;

function jobTerms(job: Pick<JobItem, 'title' | 'category' | 'location' | 'skills' | 'description'>): Set<string> {
  const terms = new Set<string>([categoryTerm(job.category)]);
  for (const word of searchWords([job.title, job.category, job.location, ...job.skills].join(' '))) {
    terms.add(word);
    for (const prefix of prefixes(word)) terms.add(prefix);
  }
  for (const word of searchWords(job.description).slice(0, MAX_DESCRIPTION_WORDS)) terms.add(word);
  return terms;
}

/** What each term item of an open job carries besides its keys. */
interface SearchEntry {
  /** When the job was posted: the index's order. */
  createdAt: string;
  /** Every term of the job, so a query on one term can filter on the others. */
  terms: Set<string>;
  card: JobCardItem;
}

/** The index's entry for a job as it is now: none unless it is open and its poster not suspended. */
function searchEntryOf(job: JobItem | undefined): SearchEntry | undefined {
  return job?.status === 'open' && !job.posterSuspended ? { createdAt: job.createdAt, terms: jobTerms(job), card: jobCardOf(job) } : undefined;
}

/**
 * Brings a job's term items in line with the job as it is now (none unless open). It reads
 * the current job rather than trusting the event, so a late or repeated event is harmless;
 * and two syncs of one job can run at once (EventBridge delivers in parallel), so after
 * writing it reads the job again and goes round once more if the job's entry changed
 * meanwhile: the last sync to finish always leaves the index as the job is.
 */
export async function syncSearchTerms(jobId: string): Promise<{ written: number; deleted: number }> {
  const totals = { written: 0, deleted: 0 };
  let entry = searchEntryOf(await getJob(jobId, { consistentRead: true }));
  for (let round = 0; round < 5; round++) {
    const result = await writeTerms(jobId, entry);
    totals.written += result.written;
    totals.deleted += result.deleted;
    const now = searchEntryOf(await getJob(jobId, { consistentRead: true }));
    if (isDeepStrictEqual(now, entry)) break;
    entry = now;
  }
  return totals;
}

async function writeTerms(jobId: string, entry: SearchEntry | undefined): Promise<{ written: number; deleted: number }> {
  const wanted = entry?.terms ?? new Set<string>();
  const existing = await queryAll<{ sk: string } & Partial<Pick<SearchEntry, 'terms' | 'card'>>>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':term': keys.jobTermPrefix() },
    ProjectionExpression: 'sk, terms, card',
    ConsistentRead: true,
  });
  const termOf = (item: { sk: string }) => item.sk.slice(keys.jobTermPrefix().length);

  // Items written for an older version of the job (its terms or its card changed) are rewritten.
  const current = new Set(existing.filter((item) => entry && isDeepStrictEqual(item.terms, entry.terms) && isDeepStrictEqual(item.card, entry.card)).map(termOf));
  const deletes = existing.filter((item) => !wanted.has(termOf(item))).map((item) => ({ DeleteRequest: { Key: keys.jobTerm(jobId, termOf(item)) } }));
  const puts = entry
    ? [...wanted]
        .filter((term) => !current.has(term))
        .map((term) => ({
          PutRequest: {
            Item: {
              ...keys.jobTerm(jobId, term),
              type: 'jobTerm',
              terms: entry.terms,
              card: entry.card,
              gsi1pk: keys.jobsWithTerm(term),
              gsi1sk: timeOrdered(entry.createdAt, jobId),
            },
          },
        }))
    : [];
  await batchWrite([...deletes, ...puts]);
  return { written: puts.length, deleted: deletes.length };
}

export interface BrowseQuery {
  text?: string;
  category?: JobCategory;
  limit: number;
  cursor?: string;
  excludePosterId?: string;
}

/** A term item as a search reads it: its keys (a page's cursor) and the job's card. */
type FoundTermItem = ItemKey & { gsi1pk: string; gsi1sk: string; card: JobCardItem };

/** Open jobs newest first, optionally matching words and a category, as their cards show them. */
export async function browseOpenJobs(query: BrowseQuery): Promise<Page<JobCardSummary>> {
  const words = searchWords(query.text ?? '');
  if (words.length === 0 && !query.category) {
    return listJobsByStatus('open', { limit: query.limit, cursor: query.cursor, excludePosterId: query.excludePosterId, listedOnly: true }, (job) => toJobCard(job, jobCardOf(job)));
  }
  const wanted = [...words, ...(query.category ? [categoryTerm(query.category)] : [])];
  // The longest word is the likeliest to be rare; a category alone is a term of its own.
  const anchor = words.length ? words.reduce((a, b) => (b.length > a.length ? b : a)) : wanted[0]!;
  const filters: string[] = [];
  const values: Record<string, unknown> = { ':term': keys.jobsWithTerm(anchor) };
  wanted
    .filter((term) => term !== anchor)
    .forEach((term, i) => {
      filters.push(`contains(terms, :t${i})`);
      values[`:t${i}`] = term;
    });
  if (query.excludePosterId) {
    filters.push('card.posterId <> :me');
    values[':me'] = query.excludePosterId;
  }

  let startKey: Record<string, unknown> | undefined = decodeCursor(query.cursor, { index: 'GSI1', partition: keys.jobsWithTerm(anchor) });
  const found: FoundTermItem[] = [];
  let [read, matched] = [0, 0];
  for (let reads = 0; reads < MAX_READS_PER_PAGE && found.length < query.limit; reads++) {
    const needed = query.limit - found.length;
    // A filter can leave a read short: each read asks for as many items as should hold the
    // rest of the page at the share of matches seen so far (the first asks for the page).
    const share = read === 0 ? 1 : Math.max(matched, 1) / read;
    const limit = Math.min(Math.ceil(needed / share), READ_BUDGET_IN_PAGES * query.limit - read);
    if (limit <= 0) break;
    const result = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'gsi1pk = :term',
        ExpressionAttributeValues: values,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ProjectionExpression: 'pk, sk, gsi1pk, gsi1sk, card',
        ScanIndexForward: false,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    // A term item from before items carried the card (a local table of an older version) is left
    // out until its job's next change rewrites it, rather than failing the page.
    const items = ((result.Items ?? []) as Array<Partial<FoundTermItem>>).filter((item): item is FoundTermItem => item.card !== undefined);
    found.push(...items.slice(0, needed));
    read += result.ScannedCount ?? 0;
    matched += items.length;
    startKey = result.LastEvaluatedKey;
    if (items.length > needed) {
      // More matches than the page holds: the next page starts after its last job.
      const { pk, sk, gsi1pk, gsi1sk } = found.at(-1)!;
      startKey = { pk, sk, gsi1pk, gsi1sk };
    }
    if (!startKey) break;
  }
  const cards = await withPayments(found.map((item) => ({ job: timeOrderedParts(item.gsi1sk), card: item.card })));
  return { items: cards.map(({ job, card }) => toJobCard(job, card)), nextCursor: encodeCursor(startKey) };
}

type FoundCard = { job: { id: string; createdAt: string }; card: JobCardItem };

/**
 * Cards written before cards carried `payment` (a deployed stage's index, a developer's kept
 * `.local/` table) take it from their jobs, read in one BatchGetItem of those few alone; the
 * job's next event rewrites its items, as writeTerms rewrites any item whose card differs.
 * Not derived from postedAmount: that would assume the job was priced under today's fee
 * rule, and a stored job's amounts are its own (jobPriceQuote). A job gone meanwhile leaves
 * its card out, as its items are about to be.
 */
async function withPayments(found: FoundCard[]): Promise<FoundCard[]> {
  const legacy = found.filter(({ card }) => card.payment === undefined);
  if (legacy.length === 0) return found;
  const jobs = await batchGet<JobItem>(legacy.map(({ job }) => keys.job(job.id)));
  const paymentOf = new Map(jobs.filter((job) => job !== undefined).map((job) => [job.id, job.payment]));
  return found.flatMap((item) => {
    if (item.card.payment !== undefined) return [item];
    const payment = paymentOf.get(item.job.id);
    return payment === undefined ? [] : [{ ...item, card: { ...item.card, payment } }];
  });
}
