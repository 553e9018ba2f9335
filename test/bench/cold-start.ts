/**
 * Cold start, as Lambda pays it: each declared function bundled as the CDK bundles it
 * (FUNCTION_BUNDLE), with the dependencies it imports on first use bundled beside it as the
 * CDK's hook does (prebundleBuild), then imported in fresh Node processes with Lambda's Node
 * options. Printed: the median import time beside an empty module's, measured in the same run,
 * and the bundle's size (issue 16's budgets: init ≤ 15 × the empty module, ≤ 400 KB); and, for
 * information, what the first call that needs every lazily imported dependency adds (their
 * size and import time, after the bundle's).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { FUNCTION_BUNDLE, FUNCTION_ESBUILD_OPTIONS, prebundleBuild, prebundledDependencies, prebundlePackageJson } from '../../infra/constructs/app-function.js';
import { REPO_ROOT } from '../../infra/constructs/repo.js';
import { HTTP_ROUTE_GROUPS, type FunctionDeclaration } from '../../functions/routes.js';
import { NON_HTTP_DECLARATIONS } from '../support/routes.js';
import { median, printTable } from './report.js';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);
const BUDGET = { timesEmpty: 15, kilobytes: 400 };
// Inside the repository, so what a bundle leaves external and nothing bundles beside it (the
// local stack's zip table) resolves as it would from the repository.
const OUT_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'oddjobs-cold-start');

const kilobytes = (file: string) => statSync(file).size / 1024;

/** Median milliseconds to import a module in a fresh Node process, then to import `lazy` from its folder. */
function importTimes(file: string, lazy: readonly string[] = []): { init: number; firstUse: number } {
  const script = [
    `let t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); const init = performance.now() - t;`,
    `t = performance.now(); for (const name of ${JSON.stringify(lazy)}) await import(name);`,
    'console.log(init, performance.now() - t);',
  ].join('\n');
  const runs = Array.from({ length: RUNS }, () => {
    const run = spawnSync(process.execPath, [FUNCTION_BUNDLE.nodeOptions, '--input-type=module', '-e', script], {
      cwd: join(file, '..'),
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: 'us-east-1' },
    });
    if (run.status !== 0) throw new Error(`importing ${file} failed: ${run.stderr}`);
    return run.stdout.trim().split('\n').at(-1)!.split(' ').map(Number);
  });
  return { init: median(runs.map(([init]) => init!)), firstUse: median(runs.map(([, firstUse]) => firstUse!)) };
}

/** The function's bundle and what is bundled beside it, in a folder of its own; the bundle's path and the lazy modules' names and total size. */
async function bundleFunction(declaration: FunctionDeclaration) {
  const dir = join(OUT_DIR, declaration.entry.replace(/\//g, '_').replace(/\.ts$/, ''));
  const outfile = join(dir, 'index.mjs');
  await build({ ...FUNCTION_ESBUILD_OPTIONS, entryPoints: [join(REPO_ROOT, declaration.entry)], outfile, logLevel: 'error' });
  const lazy = prebundledDependencies(declaration.capabilities);
  let lazyKilobytes = 0;
  for (const dependency of lazy) {
    const { source, options } = prebundleBuild(dependency);
    const packageDir = join(dir, 'node_modules', dependency.module);
    mkdirSync(packageDir, { recursive: true });
    writeFileSync(join(packageDir, 'package.json'), prebundlePackageJson(dependency.module));
    await build({ ...options, stdin: { contents: source, resolveDir: REPO_ROOT }, outfile: join(packageDir, 'index.js'), logLevel: 'error' });
    lazyKilobytes += kilobytes(join(packageDir, 'index.js'));
  }
  return { outfile, lazy: lazy.map((dependency) => dependency.module), lazyKilobytes };
}

export async function runColdStartBench(): Promise<void> {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const empty = join(OUT_DIR, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  const declarations = [...new Map([...Object.values(HTTP_ROUTE_GROUPS), ...NON_HTTP_DECLARATIONS].map((declaration) => [declaration.entry, declaration])).values()].sort((a, b) =>
    a.entry.localeCompare(b.entry),
  );

  console.log(`Bundling ${declarations.length} functions as the CDK does, then importing each ${RUNS} times in a fresh process...`);
  const emptyMs = importTimes(empty).init;
  const rows: string[][] = [];
  let overBudget = 0;
  for (const declaration of declarations) {
    const { outfile, lazy, lazyKilobytes } = await bundleFunction(declaration);
    const size = kilobytes(outfile);
    const { init, firstUse } = importTimes(outfile, lazy);
    const within = init <= BUDGET.timesEmpty * emptyMs && size <= BUDGET.kilobytes;
    if (!within) overBudget += 1;
    rows.push([
      declaration.entry,
      size.toFixed(0),
      init.toFixed(1),
      (init / emptyMs).toFixed(1),
      within ? 'ok' : 'over',
      lazy.length ? `${lazy.join(', ')}: ${lazyKilobytes.toFixed(0)} KB, ${firstUse.toFixed(1)} ms` : '',
    ]);
  }
  console.log(`\nCold start: empty module ${emptyMs.toFixed(1)} ms (median of ${RUNS}); budget init <= ${BUDGET.timesEmpty} x empty and <= ${BUDGET.kilobytes} KB\n`);
  printTable(['function', 'KB', 'init ms', 'x empty', 'budget', 'imported on first use (all of it)'], rows);
  console.log(`\n${declarations.length - overBudget} of ${declarations.length} functions within budget.`);
}
