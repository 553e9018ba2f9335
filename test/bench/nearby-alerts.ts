/**
 * `npm run bench -- nearby`: what the nearby-job alert handler reads, how long it takes, and
 * how many Lambda invocations its alerts cost.
 *
 * 20,000 workers spread over the contiguous US plus 10,000 within 30 miles of Austin (issue 24's
 * dense metro), each with a random radius choice, are written straight to the table (bench
 * setup, with the geo index key the location route would write). Then 20 jobs open within 5
 * miles of downtown Austin and the real handler runs on each one's Job Posted event. Reported
 * per job: index items the handler's queries returned, workers actually within their own radius
 * (counted by brute force over the seeded list), their ratio (the design's bar: ≤ 3), queries
 * made, handler time, alerts written, and the Lambda invocations the job caused: the handler's
 * own and every invocation of the local stack's functions until its events and queues settled
 * (the outbox relay, the push hand-off's consumers; budget: ≤ 1 per 100 alerts).
 * BENCH_US_WORKERS, BENCH_CITY_WORKERS and BENCH_NEARBY_JOBS change the sizes. The workers are
 * kept in .local/bench-nearby (delete it to start over; alerts counted per day cap there too).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { DEFAULT_NOTIFICATION_PREFERENCES, distanceMiles, EARTH_RADIUS_MILES, RADIUS_OPTIONS } from '../../shared/notifications.js';
import type { JobEventDetail } from '../../functions/routes.js';
import { RANDOM_PORTS, startLocalStack } from '../../infra/local/stack.js';

const US_WORKERS = Number(process.env.BENCH_US_WORKERS ?? 20_000);
const CITY_WORKERS = Number(process.env.BENCH_CITY_WORKERS ?? 10_000);
/** Issue 24's budget: the Lambda invocations a job causes, per 100 alerts it writes. */
const INVOCATIONS_PER_100_ALERTS_BUDGET = 1;
const JOBS = Number(process.env.BENCH_NEARBY_JOBS ?? 20);
const AUSTIN = { latitude: 30.2672, longitude: -97.7431 };
const dataDir = resolve(import.meta.dirname, '../../.local/bench-nearby');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.LOG_LEVEL ??= 'warn';

/** A deterministic generator, so every run seeds (and measures) the same map. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A point up to `maxMiles` from the centre, uniform over the disc. */
function around(center: { latitude: number; longitude: number }, maxMiles: number, next: () => number) {
  const miles = maxMiles * Math.sqrt(next());
  const bearing = next() * 2 * Math.PI;
  const degrees = (miles / EARTH_RADIUS_MILES) * (180 / Math.PI);
  return {
    latitude: center.latitude + degrees * Math.cos(bearing),
    longitude: center.longitude + (degrees * Math.sin(bearing)) / Math.cos((center.latitude * Math.PI) / 180),
  };
}

interface BenchWorker {
  id: string;
  latitude: number;
  longitude: number;
  radiusMiles: number;
}

function workers(): BenchWorker[] {
  const next = random(11);
  const radius = () => RADIUS_OPTIONS[Math.floor(next() * RADIUS_OPTIONS.length)]!;
  const spread = Array.from({ length: US_WORKERS }, (_, i) => ({
    id: `bench-us-${i}`,
    latitude: 25 + next() * 24,
    longitude: -124 + next() * 57,
    radiusMiles: radius(),
  }));
  const city = Array.from({ length: CITY_WORKERS }, (_, i) => ({ id: `bench-austin-${i}`, ...around(AUSTIN, 30, next), radiusMiles: radius() }));
  return [...spread, ...city];
}

export async function runNearbyAlertsBench(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const stack = await startLocalStack({ dataDir, ports: RANDOM_PORTS, tableName: 'oddjobs-bench-nearby' });
  try {
    // Imported after the stack set the handlers' environment.
    const { db } = await import('../../functions/lib/db.js');
    const { batchWrite } = await import('../../functions/lib/batch.js');
    const { keys } = await import('../../functions/table.js');
    const { newProfile } = await import('../../functions/people/profiles.js');
    const { geoIndexKey } = await import('../../functions/location/worker-locations.js');
    const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
    const { createJobSchema } = await import('../../shared/schemas/job.js');
    const { handler } = await import('../../functions/location/events/nearby-job-alerts.js');
    const { findAlertCandidates } = await import('../../functions/location/nearby-alerts.js');

    const everyone = workers();
    const marker = resolve(dataDir, `seeded-${US_WORKERS}-${CITY_WORKERS}.json`);
    if (!existsSync(marker)) {
      const started = Date.now();
      console.log(`Writing ${everyone.length} workers (once; kept in ${dataDir})...`);
      const now = new Date().toISOString();
      const items = everyone.map((worker) => {
        const profile = {
          ...newProfile({ id: worker.id, name: worker.id, email: `${worker.id}@example.com`, role: 'worker', now }),
          latitude: worker.latitude,
          longitude: worker.longitude,
          locationUpdatedAt: now,
          timeZone: 'America/Chicago',
          notificationPreferences: { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: worker.radiusMiles, maxPerDay: 50 },
        };
        return { PutRequest: { Item: { ...keys.profile(worker.id), type: 'profile', ...profile, ...geoIndexKey(profile) } } };
      });
      for (let start = 0; start < items.length; start += 500) await batchWrite(items.slice(start, start + 500));
      writeFileSync(marker, '{}');
      console.log(`  done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }

    // Items and calls of the handler's geo-index queries, counted on the way back.
    let itemsRead = 0;
    let queries = 0;
    db.middlewareStack.add(
      (next) => async (args) => {
        const result = await next(args);
        const input = args.input as { IndexName?: string; ExpressionAttributeValues?: Record<string, unknown> };
        if (input.IndexName === 'GSI1' && String(input.ExpressionAttributeValues?.[':pk'] ?? '').startsWith('GEO#')) {
          queries += 1;
          itemsRead += (result.output as { Count?: number }).Count ?? 0;
        }
        return result;
      },
      { step: 'initialize', name: 'benchGeoReads' },
    );

    const totalInvocations = () => [...stack.functions.invocationCounts().values()].reduce((sum, count) => sum + count, 0);
    const next = random(Date.now());
    const rows: number[][] = [];
    for (let i = 0; i < JOBS; i++) {
      const point = around(AUSTIN, 5, next);
      const request = createJobSchema.parse({
        title: `Bench job ${i}`,
        description: 'Two hours of help.',
        address: { street: `${i} Congress Ave`, city: 'Austin', state: 'TX' },
        payment: 5000,
        category: 'Home Projects',
        date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        duration: '2 hours',
      });
      const job = newJob(request, 'bench-poster', new Date().toISOString());
      await putNewJob(job);
      await db.send(
        new UpdateCommand({
          TableName: stack.tableName,
          Key: keys.job(job.id),
          UpdateExpression: 'SET latitude = :lat, longitude = :lon, geocodedAddress = fullAddress',
          ExpressionAttributeValues: { ':lat': point.latitude, ':lon': point.longitude },
        }),
      );
      const inRange = everyone.filter((worker) => distanceMiles(worker, point) <= worker.radiusMiles).length;
      itemsRead = 0;
      queries = 0;
      const invokedBefore = totalInvocations();
      const started = performance.now();
      await handler({ detail: { job: { ...job } } } as unknown as EventBridgeEvent<string, JobEventDetail>);
      const run = { ms: performance.now() - started, itemsRead, queries };
      // Everything the alerts set off (the hand-off's relay and consumers), then the handler itself.
      await stack.events.idle();
      await stack.queues.idle();
      const invocations = totalInvocations() - invokedBefore + 1;
      const { Count: alerts = 0 } = await db.send(
        new QueryCommand({
          TableName: stack.tableName,
          IndexName: 'GSI3',
          KeyConditionExpression: 'gsi3pk = :job AND begins_with(gsi3sk, :alert)',
          ExpressionAttributeValues: { ':job': keys.jobReferences(job.id), ':alert': 'NEARBY#' },
          Select: 'COUNT',
        }),
      );
      // The finding alone (the queries), without the alerts' writes, for the same point.
      const findStarted = performance.now();
      await findAlertCandidates(point);
      rows.push([run.itemsRead, inRange, run.queries, run.ms, performance.now() - findStarted, alerts, invocations]);
    }

    const sum = (column: number) => rows.reduce((total, row) => total + row[column]!, 0);
    const sorted = rows.map((row) => row[3]!).sort((a, b) => a - b);
    console.log(`\nNearby-job alerts: ${US_WORKERS} workers over the US + ${CITY_WORKERS} within 30 mi of Austin; ${JOBS} jobs within 5 mi of Austin\n`);
    console.log('job  items read  in range  ratio  queries  handler ms  of which finding ms  alerts  invocations');
    rows.forEach(([read, inRange, calls, ms, findMs, alerts, invocations], i) =>
      console.log(
        `${String(i + 1).padStart(3)}  ${String(read).padStart(10)}  ${String(inRange).padStart(8)}  ${(read! / Math.max(1, inRange!)).toFixed(2).padStart(5)}  ${String(calls).padStart(7)}  ${ms!.toFixed(0).padStart(10)}  ${findMs!.toFixed(0).padStart(19)}  ${String(alerts).padStart(6)}  ${String(invocations).padStart(11)}`,
      ),
    );
    console.log(
      `\nall  items read ${sum(0)}, in range ${sum(1)}: ${(sum(0) / Math.max(1, sum(1))).toFixed(2)} items read per worker in range (bar: ≤ 3); ` +
        `worst job ${Math.max(...rows.map(([read, inRange]) => read! / Math.max(1, inRange!))).toFixed(2)}; ` +
        `${(sum(2) / rows.length).toFixed(0)} queries per job; handler p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; ` +
        `finding alone p50 ${rows.map((row) => row[4]!).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!.toFixed(0)} ms`,
    );
    const alerts = sum(5);
    console.log(
      alerts > 0
        ? `invocations per 100 alerts: ${((sum(6) / alerts) * 100).toFixed(2)} (budget: ≤ ${INVOCATIONS_PER_100_ALERTS_BUDGET}; ${sum(6)} invocations for ${alerts} alerts)`
        : 'invocations per 100 alerts: no alerts written (every worker at their daily limit: delete .local/bench-nearby or wait for tomorrow)',
    );
  } finally {
    await stack.stop();
  }
}
