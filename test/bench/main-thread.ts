/**
 * What a page's main thread did during a Lighthouse run (test/bench/web.ts), in figures that the
 * machine's load changes little: Lighthouse's simulated total blocking time and longest task
 * (the observed task times × its CPU slowdown, scheduled as on a phone), and the longest task as
 * the browser observed it, with what it ran: its time by kind of work (Lighthouse's task groups),
 * and, when the run sampled the JS profiler (BENCH_WEB_PROFILE), the functions it spent its time
 * in, mapped through the build's hidden source maps to their modules.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { Result } from 'lighthouse';
import { WEB_DIST_DIR } from '../../infra/local/web-preview.js';

/** The trace category that adds the JS sampling profiler's samples to a Lighthouse trace. */
export const PROFILER_TRACE_CATEGORY = 'disabled-by-default-v8.cpu_profiler';

export interface MainThread {
  /** Lighthouse's (simulated) total blocking time, ms. */
  tbtMs: number;
  /** Lighthouse's max potential first input delay: its longest simulated task, ms. */
  maxFidMs: number;
  /** Lighthouse's longest simulated task: when it started (ms from navigation) and the script it is attributed to. */
  longestTask: { durationMs: number; startMs: number; script: string } | null;
  /** Every main-thread task's time, as simulated, ms. */
  workMs: number;
  /** The longest task as observed (this machine, unthrottled): duration, ms by kind of work, and what it ran. */
  observed: { durationMs: number; byGroup: Array<[string, number]>; ran: Array<[string, number]> } | null;
}

interface TraceEvent {
  name: string;
  ts: number;
  pid: number;
  tid: number;
  id?: string;
  args: { data?: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number; startTime?: number; cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] } };
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface TaskNode {
  event: TraceEvent;
  parent?: TaskNode;
  children: TaskNode[];
  duration: number;
  selfTime: number;
  group: { id: string };
}

/** A script's file name without its content hash (`index-BbsO0k9b.js` → `index.js`), comparable between builds. */
const scriptName = (url: string) => {
  const file = url.split('/').pop() ?? url;
  return file.endsWith('.js') ? file.replace(/-[\w-]{8}\.js$/, '.js') : url === 'Unattributable' ? 'unattributed' : new URL(url).pathname;
};

/** Where a place in a built script came from: its module (package or web/shared path) and function, via the hidden source map. */
function symbolicator(): (url: string, line: number, column: number, name: string) => string {
  const maps = new Map<string, TraceMap | null>();
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      const path = join(WEB_DIST_DIR, 'assets', `${file}.map`);
      maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8')) : null);
    }
    return maps.get(file)!;
  };
  return (url, line, column, name) => {
    if (!url) return name || '(native)';
    const file = url.split('/').pop()!;
    const map = mapOf(file);
    const at = map ? originalPositionFor(map, { line: line + 1, column }) : null;
    if (!at?.source) return `${name || '(anonymous)'} ${scriptName(url)}`;
    const source = at.source.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1').replace(/^(?:\.\.\/)+/, '');
    return `${at.name ?? name ?? '(anonymous)'} ${source}`;
  };
}

/**
 * The sampled JS functions of a time window on one thread, by self time (ms), longest first.
 * Samples arrive in `Profile`/`ProfileChunk` events (nodes name their parent; each sample's time
 * is the gap to the next).
 */
function sampledFunctions(events: TraceEvent[], thread: { pid: number; tid: number }, from: number, to: number): Array<[string, number]> {
  interface Profile {
    start: number;
    nodes: Map<number, ProfileNode>;
    samples: number[];
    deltas: number[];
  }
  // A thread's samples come in chunks from the profiler's own thread: they name the profile by id, unique in their process.
  const ids = new Set(events.filter((event) => event.name === 'Profile' && event.pid === thread.pid && event.tid === thread.tid).map((event) => event.id));
  const byId = new Map<string, Profile>();
  for (const event of events) {
    if ((event.name !== 'Profile' && event.name !== 'ProfileChunk') || event.pid !== thread.pid || !ids.has(event.id)) continue;
    const data = event.args.data ?? {};
    const profile: Profile = byId.get(event.id!) ?? { start: data.startTime ?? event.ts, nodes: new Map(), samples: [], deltas: [] };
    for (const node of data.cpuProfile?.nodes ?? []) profile.nodes.set(node.id, node);
    profile.samples.push(...(data.cpuProfile?.samples ?? []));
    profile.deltas.push(...(data.timeDeltas ?? []));
    byId.set(event.id!, profile);
  }
  const symbolicate = symbolicator();
  const selfMs = new Map<string, number>();
  for (const { start, nodes, samples, deltas } of byId.values()) {
    let time = start;
    for (let i = 0; i < samples.length; i++) {
      time += deltas[i] ?? 0;
      const next = time + (deltas[i + 1] ?? 0);
      if (next <= from || time >= to) continue;
      const frame = nodes.get(samples[i]!)?.callFrame;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)') continue;
      const key = symbolicate(frame.url, frame.lineNumber, frame.columnNumber, frame.functionName);
      selfMs.set(key, (selfMs.get(key) ?? 0) + (Math.min(next, to) - Math.max(time, from)) / 1000);
    }
  }
  return [...selfMs].sort((a, b) => b[1] - a[1]);
}

/** Time by task group (script evaluation, style & layout, ...) of a task and its descendants, longest first. */
function byGroup(task: TaskNode): Array<[string, number]> {
  const totals = new Map<string, number>();
  const add = (node: TaskNode) => {
    totals.set(node.group.id, (totals.get(node.group.id) ?? 0) + node.selfTime);
    node.children.forEach(add);
  };
  add(task);
  return [...totals].filter(([, ms]) => ms >= 1).sort((a, b) => b[1] - a[1]);
}

/** The JS functions a task called directly (trace events, no profiler needed), by time. */
function calledFunctions(task: TaskNode): Array<[string, number]> {
  const symbolicate = symbolicator();
  const calls = new Map<string, number>();
  const visit = (node: TaskNode) => {
    const data = node.event.args.data;
    if (node.event.name === 'FunctionCall' && data?.url) {
      const key = symbolicate(data.url, data.lineNumber ?? 0, data.columnNumber ?? 0, data.functionName ?? '');
      calls.set(key, (calls.get(key) ?? 0) + node.duration);
      return;
    }
    // What runs without a function call event: a module's or script's top level, promise callbacks.
    if (node.event.name === 'v8.evaluateModule' || node.event.name === 'EvaluateScript' || node.event.name === 'RunMicrotasks') {
      calls.set(node.event.name, (calls.get(node.event.name) ?? 0) + node.duration);
      return;
    }
    node.children.forEach(visit);
  };
  visit(task);
  return [...calls].sort((a, b) => b[1] - a[1]);
}

export async function mainThreadOf(lhr: Result, trace: { traceEvents: TraceEvent[] }): Promise<MainThread> {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const longTasks = (lhr.audits['long-tasks']?.details as { items?: Array<{ url: string; duration: number; startTime: number }> } | undefined)?.items ?? [];
  const longest = [...longTasks].sort((a, b) => b.duration - a.duration)[0];

  // Lighthouse's own task tree of the main thread (internal module: Lighthouse exports no API for it).
  const { MainThreadTasks } = (await import('lighthouse/core/computed/main-thread-tasks.js')) as unknown as {
    MainThreadTasks: { request(trace: unknown, context: unknown): Promise<TaskNode[]> };
  };
  const tasks = await MainThreadTasks.request(trace, { computedCache: new Map() });
  const observed = tasks.filter((task) => !task.parent).sort((a, b) => b.duration - a.duration)[0];
  let ran: Array<[string, number]> = [];
  if (observed) {
    const from = observed.event.ts;
    const sampled = sampledFunctions(trace.traceEvents, observed.event, from, from + observed.duration * 1000);
    ran = sampled.length ? sampled : calledFunctions(observed);
  }
  return {
    tbtMs: numeric('total-blocking-time'),
    maxFidMs: numeric('max-potential-fid'),
    longestTask: longest ? { durationMs: longest.duration, startMs: longest.startTime, script: scriptName(longest.url) } : null,
    workMs: numeric('mainthread-work-breakdown'),
    observed: observed ? { durationMs: observed.duration, byGroup: byGroup(observed), ran } : null,
  };
}
