/**
 * `npm run bench [-- fan-out|browse|nearby|dashboards]`: every benchmark, or the one named.
 * fan-out: the live job feed to 5,000 WebSocket connections (test/bench/fan-out.ts);
 * browse: listing and searching open jobs (test/bench/browse.ts);
 * nearby: the nearby-job alert handler over 20,000 workers (test/bench/nearby-alerts.ts);
 * dashboards: each dashboard load as its screen makes it (test/bench/dashboards.ts).
 */
import { runBrowseBench } from './browse.js';
import { runDashboardsBench } from './dashboards.js';
import { runFanOutBench } from './fan-out.js';
import { runNearbyAlertsBench } from './nearby-alerts.js';

const BENCHES = { 'fan-out': runFanOutBench, browse: runBrowseBench, nearby: runNearbyAlertsBench, dashboards: runDashboardsBench } as const;

async function main(): Promise<void> {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((name) => !(name in BENCHES));
  if (unknown.length) throw new Error(`unknown bench ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`);
  for (const name of chosen.length ? chosen : Object.keys(BENCHES)) await BENCHES[name as keyof typeof BENCHES]();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
