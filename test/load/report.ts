/** The figures of a load run, from Artillery's JSON report, printed beside their budgets (never asserted). */
import { printTable } from '../bench/report.js';

interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
}

interface Period {
  counters?: Record<string, number>;
  summaries?: Record<string, Summary>;
  firstMetricAt?: number;
  lastMetricAt?: number;
  period?: string | number;
}

export interface ArtilleryReport {
  aggregate: Period;
  intermediate: Period[];
}

/**
 * p95 budgets in ms, per step of processor.ts: a person waiting on a read, a write, a money
 * move. They are what the product should meet on real AWS; on one shared 2-core machine, where
 * every emulator and Artillery itself share the cores, they are a yardstick, not a promise.
 */
const P95_BUDGET_MS: Record<string, number> = {
  sign_in: 500,
  browse: 300,
  search: 300,
  open_job: 300,
  applicants: 300,
  job_status: 300,
  my_applications: 300,
  save_job: 500,
  apply: 500,
  accept: 800,
  complete: 800,
  post_job: 800,
  card_confirm: 500,
  payment_confirm: 800,
  release: 800,
  chat_send: 500,
};
const DELIVERY_P95_BUDGET_MS = 500;
const PERIOD_SECONDS = 10;

const ms = (value: number | undefined) => (value === undefined ? '-' : `${Math.round(value)} ms`);
const rate = (count: number, seconds: number) => `${(count / seconds).toFixed(1)}/s`;

/** `step.<name>.codes.<status>` and `step.<name>.errors.<code>` counters, by step. */
function answersByStep(counters: Record<string, number>) {
  const byStep = new Map<string, Map<string, number>>();
  for (const [name, count] of Object.entries(counters)) {
    const match = /^step\.([a-z_]+)\.(codes|errors)\.(.+)$/.exec(name);
    if (!match) continue;
    const [, step, , code] = match as unknown as [string, string, string, string];
    if (!byStep.has(step)) byStep.set(step, new Map());
    byStep.get(step)!.set(code, count);
  }
  return byStep;
}

export function printReport(report: ArtilleryReport, run: { users: number; duration: number; ramp: number }): void {
  const counters = report.aggregate.counters ?? {};
  const summaries = report.aggregate.summaries ?? {};
  // From the first request to the last: the rounds under way at the end finish after the planned time.
  const { firstMetricAt = 0, lastMetricAt = 0 } = report.aggregate;
  const seconds = Math.max(1, (lastMetricAt - firstMetricAt) / 1000);

  console.log(`\nLOAD: ${run.users} virtual users arriving over ${run.ramp} s, then ${run.duration} s more; requests from the first to the last took ${seconds.toFixed(0)} s\n`);
  printTable(
    ['scenario', 'virtual users', 'rounds', 'rounds/s'],
    (['poster', 'worker', 'chat'] as const).map((scenario) => {
      const rounds = counters[`scenario.${scenario}.rounds`] ?? 0;
      return [scenario, String(counters[`vusers.created_by_name.${scenario}`] ?? 0), String(rounds), rate(rounds, seconds)];
    }),
  );
  console.log(`virtual users completed ${counters['vusers.completed'] ?? 0}, failed ${counters['vusers.failed'] ?? 0}`);
  const vuErrors = Object.entries(counters).filter(([name]) => name.startsWith('errors.'));
  if (vuErrors.length) console.log(`virtual users' errors: ${vuErrors.map(([name, count]) => `${count} x ${name.slice('errors.'.length)}`).join(', ')}`);

  console.log('');
  const answers = answersByStep(counters);
  printTable(
    ['step', 'requests', 'throughput', 'p50', 'p95', 'p99', 'p95 budget', 'answers by code'],
    Object.keys(P95_BUDGET_MS)
      .filter((step) => summaries[`step.${step}`])
      .map((step) => {
        const summary = summaries[`step.${step}`]!;
        const budget = P95_BUDGET_MS[step]!;
        const codes = [...(answers.get(step) ?? [])].map(([code, count]) => `${code}: ${count}`).join(', ');
        return [step, String(summary.count), rate(summary.count, seconds), ms(summary.p50), ms(summary.p95), ms(summary.p99), `${budget} ms${summary.p95 > budget ? ' (over)' : ''}`, codes];
      }),
  );
  const delivery = summaries['chat.delivery'];
  if (delivery) {
    console.log(
      `\nchat delivery (persisted -> pushed to the other party's socket): ${delivery.count} pushes, p50 ${ms(delivery.p50)}, p95 ${ms(delivery.p95)}, p99 ${ms(delivery.p99)} (p95 budget ${DELIVERY_P95_BUDGET_MS} ms)`,
    );
  }

  const refused = [...answers.values()].flatMap((codes) => [...codes]).filter(([code]) => !/^2/.test(code));
  const byCode = new Map<string, number>();
  for (const [code, count] of refused) byCode.set(code, (byCode.get(code) ?? 0) + count);
  const serverErrors = [...byCode].filter(([code]) => /^5/.test(code)).reduce((sum, [, count]) => sum + count, 0);
  console.log(`\nerrors by code: ${byCode.size ? [...byCode].map(([code, count]) => `${code}: ${count}`).join(', ') : 'none'} (5xx: ${serverErrors})`);

  printKnee(report.intermediate, run);
}

/**
 * The ramp, period by period: virtual users active, requests per second and the p95 of every
 * request. The knee is where throughput stops growing with the users while p95 climbs.
 */
function printKnee(periods: Period[], run: { users: number; ramp: number }): void {
  let created = 0;
  let ended = 0;
  const sorted = [...periods].sort((a, b) => Number(a.period) - Number(b.period));
  const startedAt = Number(sorted[0]?.period);
  const rows = sorted
    .map((period) => {
      const counters = period.counters ?? {};
      created += counters['vusers.created'] ?? 0;
      ended += (counters['vusers.completed'] ?? 0) + (counters['vusers.failed'] ?? 0);
      const requests = period.summaries?.requests;
      const from = Math.round((Number(period.period) - startedAt) / 1000);
      // Artillery's periods are wall-clock aligned: the first and the last hold only part of one.
      const seconds = ((period.lastMetricAt ?? 0) - (period.firstMetricAt ?? 0)) / 1000;
      return requests && { from, seconds, active: created - ended, throughput: requests.count / Math.max(1, seconds), p95: requests.p95 };
    })
    .filter((row) => row !== undefined);
  if (!rows.length) return;
  console.log(`\nRAMP (${PERIOD_SECONDS} s periods; ${run.users} users arrive over the first ${run.ramp} s)\n`);
  printTable(
    ['period', 'users active at its end', 'requests/s', 'p95 of all requests'],
    rows.map((row) => [`${row.from}-${row.from + PERIOD_SECONDS} s${row.seconds < PERIOD_SECONDS / 2 ? ' (partial)' : ''}`, String(row.active), row.throughput.toFixed(1), ms(row.p95)]),
  );
  const full = rows.filter((row) => row.seconds >= PERIOD_SECONDS / 2);
  if (!full.length) return;
  // The knee: the last period before the users grew (by a tenth or more) and the throughput did not (by a tenth).
  const kneeAt = full.findIndex((row, i) => {
    const next = full[i + 1];
    return next !== undefined && next.active >= row.active * 1.1 && next.throughput < row.throughput * 1.1;
  });
  const peak = full.reduce((best, row) => (row.throughput > best.throughput ? row : best));
  const knee = full[kneeAt];
  console.log(
    knee
      ? `knee: about ${knee.active} active users (${knee.throughput.toFixed(1)} requests/s, p95 ${ms(knee.p95)}): with more users the throughput grew no further and the wait did. Peak throughput ${peak.throughput.toFixed(1)} requests/s at ${peak.active} users.`
      : `no knee within this run: the throughput never stalled while the users grew; peak ${peak.throughput.toFixed(1)} requests/s at ${peak.active} users.`,
  );
}
