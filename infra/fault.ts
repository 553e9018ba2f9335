/**
 * `npm run fault`: faults in the local emulators (docs/faults.md).
 *
 *   npm run fault                              every fault against a fresh local stack: each promise, and whether it held
 *   npm run fault -- <target> <mode> [share]   switches one on in the running `npm run dev`
 *   npm run fault -- clear                     switches them all off
 *   npm run fault -- status                    lists the ones on
 *
 * Exit 0 on success, 2 for a target, mode or share it does not know, 1 when the stack cannot be reached.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_PORTS } from './local/stack.js';
import { FAULT_MODES, FaultSwitch, UnknownFault, type ActiveFault } from './local/faults.js';

const REPO_ROOT = resolve(import.meta.dirname, '..');
/** The fault scenarios: one test per fault, named by the promise it shows. */
const SCENARIOS = 'test/integration/faults.test.ts';

const usage = `Usage:
  npm run fault                              run every fault scenario against a fresh local stack
  npm run fault -- <target> <mode> [share]   switch a fault on in the running \`npm run dev\` (share: 0 < share <= 1, default 1)
  npm run fault -- clear                     switch every fault off
  npm run fault -- status                    list the faults that are on

Targets and modes:
${Object.entries(FAULT_MODES)
  .map(([target, modes]) => `  ${target.padEnd(9)} ${modes.join(', ')}`)
  .join('\n')}`;

/** The running `npm run dev`'s control endpoint: LOCAL_FAULTS_PORT from .env, or the default. */
function controlUrl(): string {
  const envFile = resolve(REPO_ROOT, '.env');
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return `http://127.0.0.1:${process.env.LOCAL_FAULTS_PORT ?? DEFAULT_PORTS.faults}/faults`;
}

const describe = (faults: ActiveFault[]) =>
  faults.length ? faults.map(({ target, mode, share }) => `${target} ${mode}${share < 1 ? ` (share ${share})` : ''}`).join('\n') : 'No faults are on.';

async function control(method: 'GET' | 'PUT' | 'DELETE', path = '', body?: object): Promise<ActiveFault[]> {
  const url = `${controlUrl()}${path}`;
  let response: Response;
  try {
    response = await fetch(url, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  } catch {
    throw new Error(`No local stack answers at ${url}: start it with \`npm run dev\` (or set LOCAL_FAULTS_PORT as it runs).`);
  }
  const answer = (await response.json()) as { faults?: ActiveFault[]; message?: string };
  if (response.status === 400) throw new UnknownFault(answer.message ?? 'Unknown fault');
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${answer.message ?? ''}`);
  return answer.faults ?? [];
}

/** Runs the scenarios with vitest, which prints each fault's promise and whether it held. */
function runScenarios(): number {
  const run = spawnSync('npx', ['vitest', 'run', SCENARIOS, '--reporter=verbose'], { cwd: REPO_ROOT, stdio: 'inherit' });
  return run.status ?? 1;
}

async function main(args: string[]): Promise<number> {
  const [command, mode, share] = args;
  if (command === undefined) return runScenarios();
  if (command === 'help' || command === '--help') {
    console.log(usage);
    return 0;
  }
  if (command === 'status') {
    console.log(describe(await control('GET')));
    return 0;
  }
  if (command === 'clear') {
    await control('DELETE');
    console.log('Every fault is off.');
    return 0;
  }
  const shareValue = share === undefined ? 1 : Number(share);
  // Checked here too, so an unknown fault is told apart even when no stack runs.
  new FaultSwitch().set(command, String(mode), shareValue);
  console.log(`Faults on now:\n${describe(await control('PUT', `/${command}`, { mode, share: shareValue }))}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UnknownFault) {
      console.error(`${error.message}\n\n${usage}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
