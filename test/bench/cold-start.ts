/**
 * Cold start, as Lambda pays it: each declared function bundled as the CDK bundles it
 * (FUNCTION_BUNDLE), then imported in fresh Node processes with Lambda's Node options; the median import time beside an
 * empty module's, measured in the same run, and the bundle's size (issue 16's budgets:
 * init ≤ 15 × the empty module, ≤ 400 KB).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS } from '../../infra/constructs/app-function.js';
import { REPO_ROOT } from '../../infra/constructs/repo.js';
import { HTTP_ROUTE_GROUPS } from '../../functions/routes.js';
import { NON_HTTP_DECLARATIONS } from '../support/routes.js';
import { printTable } from './report.js';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const BUDGET = { timesEmpty: 15, kilobytes: 400 };
// Inside the repository, so the bundles resolve the SDK they leave external as Lambda's runtime would.
const OUT_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'oddjobs-cold-start');

/** Median milliseconds to import a module in a fresh Node process. */
function importTime(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const times = Array.from({ length: RUNS }, () => {
    const run = spawnSync(process.execPath, [FUNCTION_BUNDLE.nodeOptions, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } });
    if (run.status !== 0) throw new Error(`importing ${file} failed: ${run.stderr}`);
    return Number(run.stdout.trim().split('\n').at(-1));
  }).sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function runColdStartBench(): Promise<void> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const empty = join(OUT_DIR, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  const entries = [...new Set([...Object.values(HTTP_ROUTE_GROUPS), ...NON_HTTP_DECLARATIONS].map((declaration) => declaration.entry))].sort();

  console.log(`Bundling ${entries.length} functions as the CDK does, then importing each ${RUNS} times in a fresh process...`);
  const emptyMs = importTime(empty);
  const rows: string[][] = [];
  let overBudget = 0;
  for (const entry of entries) {
    const outfile = join(OUT_DIR, entry.replace(/\//g, '_').replace(/\.ts$/, '.mjs'));
    await build({ ...FUNCTION_ESBUILD_OPTIONS, entryPoints: [join(REPO_ROOT, entry)], outfile, logLevel: 'error' });
    const kilobytes = statSync(outfile).size / 1024;
    const ms = importTime(outfile);
    const within = ms <= BUDGET.timesEmpty * emptyMs && kilobytes <= BUDGET.kilobytes;
    if (!within) overBudget += 1;
    rows.push([entry, kilobytes.toFixed(0), ms.toFixed(1), (ms / emptyMs).toFixed(1), within ? 'ok' : 'over']);
  }
  console.log(`\nCold start: empty module ${emptyMs.toFixed(1)} ms (median of ${RUNS}); budget init <= ${BUDGET.timesEmpty} x empty and <= ${BUDGET.kilobytes} KB\n`);
  printTable(['function', 'KB', 'init ms', 'x empty', 'budget'], rows);
  console.log(`\n${entries.length - overBudget} of ${entries.length} functions within budget.`);
}
