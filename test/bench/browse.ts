/**
 * `npm run bench` (or `npm run bench -- browse`): what browsing and searching open jobs costs, over 5,000 open jobs,
 * through the HTTP gateway (the search engine's own cost at 1k to 100k jobs: test/bench/search.ts).
 *
 * For each scenario (a page of 20 through the local HTTP gateway) it reports the DynamoDB
 * calls and the consumed capacity per request (ReturnConsumedCapacity on every call the
 * handler makes), and p50/p99 latency beside a raw DynamoDB Query of 20 items of the partition
 * the page is read from (of each shard, in parallel, for the sharded open-jobs list), each beside
 * its budget (issue 16; per partition read, issue 24). The jobs are created once and kept
 * in .local/bench (delete it to start over, and whenever the items' shape changes).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/table.js';
import { JOB_CATEGORIES } from '../../shared/categories.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
import { getJson, meterDynamoDb, percentile, printTable, UNTHROTTLED_GATEWAYS } from './report.js';

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const PAGE = 20;
const dataDir = resolve(import.meta.dirname, '../../.local/bench');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

const WORDS = ['move', 'sofa', 'garden', 'fence', 'paint', 'clean', 'kitchen', 'garage', 'boxes', 'shelves', 'lawn', 'dog', 'deliver', 'assemble', 'desk', 'party', 'chairs', 'window', 'gutter', 'leak'];
/** Each city with its centre: the jobs are located there, as the geocoding rule would. */
const CITIES = [
  ['Austin', 'TX', 30.2713, -97.7426],
  ['Round Rock', 'TX', 30.5145, -97.668],
  ['Pflugerville', 'TX', 30.4421, -97.6299],
  ['Cedar Park', 'TX', 30.5052, -97.8203],
  ['San Marcos', 'TX', 29.8754, -97.9404],
] as const;

const pick = <T>(list: readonly T[], i: number) => list[i % list.length]!;

/** What one page may cost: one DynamoDB call, 2.5 RCU, and a p50 within 1.3 times the raw query's. */
/** Per partition the page reads (the open-jobs feed reads one per shard). */
const BUDGET = { calls: 1, capacity: 2.5, p50OverRaw: 1.3 };

/** A measured value beside its budget: "2.0 ≤ 2.5 ok", or "> … OVER" when it is beyond it. */
const againstBudget = (value: number, budget: number, digits = 1) => `${value.toFixed(digits)} ${value <= budget ? `≤ ${budget} ok` : `> ${budget} OVER`}`;

export async function runBrowseBench(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const stack = await startLocalStack({
    dataDir,
    ports: RANDOM_PORTS,
    tableName: 'oddjobs-bench',
    ...UNTHROTTLED_GATEWAYS,
  });
  try {
    // Imported after the stack set the handlers' environment.
    const { db } = await import('../../functions/lib/db.js');
    const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
    const { syncSearchDocument } = await import('../../functions/search/search-documents.js');
    const { createJobSchema } = await import('../../shared/schemas/job.js');

    const marker = resolve(dataDir, `seeded-${JOBS}.json`);
    if (!existsSync(marker)) {
      const started = Date.now();
      console.log(`Creating ${JOBS} open jobs (once; kept in ${dataDir})...`);
      const now = Date.now();
      for (let start = 0; start < JOBS; start += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, JOBS - start) }, async (_, offset) => {
            const i = start + offset;
            const [city, state, latitude, longitude] = pick(CITIES, i);
            const request = createJobSchema.parse({
              title: `${pick(WORDS, i)} ${pick(WORDS, i * 7 + 3)} job ${i}`,
              description: `Help needed: ${pick(WORDS, i * 3)} and ${pick(WORDS, i * 5 + 1)}, about two hours.`,
              address: { street: `${i} Main St`, city, state },
              payment: 1000 + (i % 200) * 100,
              category: pick(JOB_CATEGORIES, i),
              date: new Date(now + 86_400_000).toISOString().slice(0, 10),
              duration: '2 hours',
            });
            const job = newJob(request, `bench-poster-${i % 40}`, new Date(now - (JOBS - i) * 60_000).toISOString());
            await putNewJob({ ...job, latitude, longitude });
            await syncSearchDocument(job.id);
          }),
        );
        if (start % 1000 === 0) process.stdout.write(`  ${start}\n`);
      }
      writeFileSync(marker, '{}');
      console.log(`  done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }

    // Every DynamoDB call the handlers make is counted and asked for its consumed capacity.
    const meter = meterDynamoDb(stack);

    // `raw`: the partitions the page is read from. A search (words, a category) is answered by the
    // search function's engine after one Query of the hour's changed documents (docs/decisions/0325).
    const changes = [keys.searchChanges(new Date().toISOString().slice(0, 13))];
    const scenarios: Array<{ name: string; path: string; raw: readonly string[] }> = [
      { name: 'browse: first page', path: `/jobs?limit=${PAGE}`, raw: keys.jobsByStatus('open').partitions },
      { name: 'browse: category', path: `/jobs?limit=${PAGE}&category=Moving`, raw: changes },
      { name: 'search: one word', path: `/jobs?limit=${PAGE}&q=garden`, raw: changes },
      { name: 'search: part of a word', path: `/jobs?limit=${PAGE}&q=arden`, raw: changes },
      { name: 'search: a typo', path: `/jobs?limit=${PAGE}&q=gardne`, raw: changes },
      { name: 'search: two words', path: `/jobs?limit=${PAGE}&q=garden%20pflugerville`, raw: changes },
      { name: 'search: near, 10 mi', path: `/jobs?limit=${PAGE}&q=garden&lat=30.27&lng=-97.74&radius=10`, raw: changes },
      { name: 'search: no match', path: `/jobs?limit=${PAGE}&q=helicopter`, raw: changes },
    ];

    const rows: string[][] = [];
    for (const scenario of scenarios) {
      for (let round = 0; round < 10; round++) await getJson(`${stack.urls.api}${scenario.path}`); // warm-up
      const rawQuery = () =>
        Promise.all(
          scenario.raw.map((partition) =>
            db.send(
              new QueryCommand({
                TableName: stack.tableName,
                IndexName: 'GSI1',
                KeyConditionExpression: 'gsi1pk = :pk',
                ExpressionAttributeValues: { ':pk': partition },
                ScanIndexForward: false,
                Limit: PAGE,
              }),
            ),
          ),
        );
      // Each round times one page and one raw query, in turns of order, so both see the same
      // state of the process (JIT, GC, the emulator's caches); the meter counts the pages only.
      const [latencies, rawLatencies] = [[] as number[], [] as number[]];
      let [calls, capacity, items] = [0, 0, 0];
      const timed = async (into: number[], run: () => Promise<unknown>) => {
        const started = performance.now();
        await run();
        into.push(performance.now() - started);
      };
      const page = async () => {
        meter.reset();
        await timed(latencies, async () => (items = (await getJson<{ items: unknown[] }>(`${stack.urls.api}${scenario.path}`)).items.length));
        [calls, capacity] = [calls + meter.calls, capacity + meter.capacity];
      };
      const raw = () => timed(rawLatencies, rawQuery);
      for (let round = 0; round < ROUNDS; round++) for (const run of round % 2 ? [raw, page] : [page, raw]) await run();
      latencies.sort((a, b) => a - b);
      rawLatencies.sort((a, b) => a - b);
      const [p50, rawP50] = [percentile(latencies, 50), percentile(rawLatencies, 50)];
      rows.push([
        scenario.name,
        String(items),
        againstBudget(calls / ROUNDS, BUDGET.calls * scenario.raw.length),
        againstBudget(capacity / ROUNDS, BUDGET.capacity * scenario.raw.length),
        p50.toFixed(1),
        rawP50.toFixed(1),
        againstBudget(p50 / rawP50, BUDGET.p50OverRaw, 2),
        percentile(latencies, 99).toFixed(1),
        percentile(rawLatencies, 99).toFixed(1),
      ]);
    }

    console.log(`\n${JOBS} open jobs, ${ROUNDS} sequential requests per scenario, page size ${PAGE}\n`);
    printTable(['scenario', 'items', 'DDB calls/req', 'RCU/req', 'p50 ms', 'raw query p50', 'p50 / raw', 'p99 ms', 'raw p99'], rows);
  } finally {
    await stack.stop();
  }
}
