/**
 * `npm run bench [-- fan-out|browse|search|chat|nearby|dashboards|cold-start|web]`: every benchmark, or the one named.
 * fan-out: the live job feed to 10,000 WebSocket connections, subscribed over 100 job topics (test/bench/fan-out.ts);
 * browse: listing and searching open jobs (test/bench/browse.ts);
 * search: the search engine at 1k, 10k and 100k open jobs (test/bench/search.ts);
 * chat: 200 sockets exchanging messages for 60 s (test/bench/chat.ts);
 * nearby: the nearby-job alert handler over 20,000 workers (test/bench/nearby-alerts.ts);
 * dashboards: each dashboard load as its screen makes it (test/bench/dashboards.ts);
 * cold-start: each function bundled as the CDK does and imported fresh (test/bench/cold-start.ts);
 * web: Lighthouse on the built web app's landing, job and dashboard pages (test/bench/web.ts; also `npm run bench:web`).
 */
import { spawnSync } from 'node:child_process';
import { runBrowseBench } from './browse.js';
import { runChatBench } from './chat.js';
import { runColdStartBench } from './cold-start.js';
import { runDashboardsBench } from './dashboards.js';
import { runFanOutBench } from './fan-out.js';
import { runNearbyAlertsBench } from './nearby-alerts.js';
import { runSearchBench } from './search.js';
import { runWebBench } from './web.js';

const BENCHES = { 'fan-out': runFanOutBench, browse: runBrowseBench, search: runSearchBench, chat: runChatBench, nearby: runNearbyAlertsBench, dashboards: runDashboardsBench, 'cold-start': runColdStartBench, web: runWebBench } as const;

async function main(): Promise<void> {
  const chosen = process.argv.slice(2);
  const unknown = chosen.filter((name) => !(name in BENCHES));
  if (unknown.length) throw new Error(`unknown bench ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`);
  if (chosen.length === 1) return BENCHES[chosen[0] as keyof typeof BENCHES]();
  // One process per scenario: handler modules keep the SDK clients of the first local stack
  // they ran against, so a second scenario in the same process would talk to a stopped stack.
  for (const name of chosen.length ? chosen : Object.keys(BENCHES)) {
    const run = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, name], { stdio: 'inherit' });
    if (run.status !== 0) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
