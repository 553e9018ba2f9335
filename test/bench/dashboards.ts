/**
 * `npm run bench -- dashboards`: what loading each dashboard costs.
 *
 * A poster with BENCH_OWN_JOBS jobs across every status (half of them done by one worker, who
 * has reviews and saved jobs) and the open jobs of the browse bench around them. One load is
 * what the screen asks on entry: the worker dashboard GET /me/dashboard, the open-jobs feed and
 * the saved jobs; the poster dashboard GET /me/dashboard. Per load it reports the API calls,
 * the DynamoDB calls (and how many are Queries), the consumed capacity and p50/p99 latency.
 */
import { resolve } from 'node:path';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';
// The test support's user helpers (their module's vitest hooks are only declared, never run here).
import { createUser } from '../support/local-stack.js';
import { getJson, meterDynamoDb, percentile, printTable, UNTHROTTLED_GATEWAYS } from './report.js';

const OWN_JOBS = Number(process.env.BENCH_OWN_JOBS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const dataDir = resolve(import.meta.dirname, '../../.local/bench');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

export async function runDashboardsBench(): Promise<void> {
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench', ...UNTHROTTLED_GATEWAYS });
  try {
    // Imported after the stack set this process's environment (the seeding runs here).
    const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
    const { submitReview } = await import('../../functions/reviews/reviews.js');
    const { saveJob } = await import('../../functions/jobs/saved-jobs.js');
    const { createJobSchema } = await import('../../shared/schemas/job.js');

    const poster = await createUser(stack, { role: 'poster' });
    const worker = await createUser(stack, { role: 'worker' });
    const statuses = ['open', 'assigned', 'completed', 'paid', 'cancelled'] as const;
    const now = Date.now();
    const jobs = await Promise.all(
      Array.from({ length: OWN_JOBS }, async (_, i) => {
        const status = statuses[i % statuses.length]!;
        const request = createJobSchema.parse({
          title: `Dashboard bench job ${i}`,
          description: 'Help needed for about two hours.',
          address: { street: `${i} Oak St`, city: 'Austin', state: 'TX' },
          payment: 2500,
          category: 'Other',
          date: new Date(now + 86_400_000).toISOString().slice(0, 10),
          duration: '2 hours',
        });
        const job = { ...newJob(request, poster.userId, new Date(now - i * 60_000).toISOString(), status), ...(status === 'open' ? {} : { workerId: worker.userId }) };
        await putNewJob(job);
        return job;
      }),
    );
    for (const job of jobs.filter((job) => job.status === 'paid')) {
      await submitReview(job.id, poster.userId, { rating: 5, comment: 'Great work.' });
      await submitReview(job.id, worker.userId, { rating: 4, comment: 'Clear instructions.' });
    }
    for (const job of jobs.filter((job) => job.status === 'open').slice(0, 5)) await saveJob(worker.userId, job.id);

    const meter = meterDynamoDb(stack);

    // Exactly what each screen asks for on entry (web/src/features/dashboards/screens/*-dashboard).
    const scenarios = [
      { name: 'worker dashboard', token: worker.idToken, paths: ['/me/dashboard', '/feed/jobs?limit=12', '/me/saved-jobs'] },
      { name: 'poster dashboard', token: poster.idToken, paths: ['/me/dashboard'] },
    ];
    const load = (scenario: (typeof scenarios)[number]) =>
      Promise.all(
        scenario.paths.map((path) => getJson(`${stack.urls.api}${path}`, { authorization: `Bearer ${scenario.token}` })),
      );

    const rows: string[][] = [];
    for (const scenario of scenarios) {
      for (let round = 0; round < 5; round++) await load(scenario); // warm-up
      meter.reset();
      const latencies: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        await load(scenario);
        latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      rows.push([
        scenario.name,
        String(scenario.paths.length),
        (meter.calls / ROUNDS).toFixed(1),
        (meter.queries / ROUNDS).toFixed(1),
        (meter.capacity / ROUNDS).toFixed(1),
        percentile(latencies, 50).toFixed(1),
        percentile(latencies, 99).toFixed(1),
      ]);
    }

    console.log(`\n${OWN_JOBS} jobs of one poster (every status, half done by one worker), ${ROUNDS} sequential loads per dashboard\n`);
    printTable(['dashboard', 'API calls/load', 'DDB calls/load', 'Queries/load', 'RCU/load', 'p50 ms', 'p99 ms'], rows);
  } finally {
    await stack.stop();
  }
}
