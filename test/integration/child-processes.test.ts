import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../infra/local/processes.js';

const FIXTURE = resolve(import.meta.dirname, '../support/fixtures/parent-with-children.ts');

interface Started {
  parent: ChildProcess;
  pid: number;
  groups: number[];
}

/** A process's state and group from /proc; undefined once it is gone. */
function processInfo(pid: number | string): { state: string; group: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, group: Number(group) };
  } catch {
    return undefined;
  }
}

/** A zombie has ended; only its parent has not collected it yet. */
const isAlive = (pid: number | string) => {
  const info = processInfo(pid);
  return info !== undefined && info.state !== 'Z';
};

/** The live processes of a process group. */
const liveMembers = (group: number) =>
  readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && processInfo(entry)?.group === group && isAlive(entry));

/** Starts the stand-in for `npm run dev` (through `sh` when its parent is to die) and waits for its children. */
async function start(throughShell = false): Promise<Started> {
  const node = [process.execPath, '--import', 'tsx', FIXTURE];
  const parent = throughShell
    ? spawn('/bin/sh', ['-c', `${node.map((part) => `'${part}'`).join(' ')}; :`], { stdio: ['pipe', 'pipe', 'inherit'] })
    : spawn(node[0]!, node.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  // On a busy machine the local stack reports its wait for DynamoDB Local first; the line that
  // says what started is the JSON one.
  let line: string | undefined;
  for await (const next of createInterface({ input: parent.stdout! })) {
    if (next.startsWith('{')) {
      line = next;
      break;
    }
  }
  const { pid, groups } = JSON.parse(line!) as { pid: number; groups: number[] };
  expect(groups.every((group) => liveMembers(group).length > 0)).toBe(true);
  return { parent, pid, groups };
}

async function expectAllGone({ pid, groups }: Started): Promise<void> {
  await waitFor('the children to end', async () => groups.every((group) => liveMembers(group).length === 0), 20_000);
  await waitFor('the parent to end', async () => !isAlive(pid), 20_000);
}

// Concurrent: each case waits mostly for its own DynamoDB Local to start.
describe.concurrent('npm run dev takes every child process with it, however it dies (issue 15 #5)', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal}`, async () => {
      const started = await start();
      started.parent.kill(signal);
      await expectAllGone(started);
    });
  }

  it('on an uncaught exception', async () => {
    const started = await start();
    started.parent.stdin!.write('crash\n');
    await expectAllGone(started);
  });

  it('on SIGKILL, when none of its own code can run (the watchdog)', async () => {
    const started = await start();
    started.parent.kill('SIGKILL');
    await expectAllGone(started);
  });

  it('when its own parent dies', async () => {
    const started = await start(true);
    started.parent.kill('SIGKILL'); // the shell that started it
    await expectAllGone(started);
  });
}, 120_000);
