/**
 * The fan-out bench's sockets, in a process of their own (forked by test/bench/fan-out.ts):
 * 10,000 connections need 10,000 descriptors on each side, and one process may hold 20,000 here
 * (RLIMIT_NOFILE), which the gateway's side alone would nearly use up.
 *
 * Messages from the bench: `{ type: 'open', url, connections, subscriptions, bigTopicSockets }`
 * (answered `{ type: 'ready', subscribedPerJob }` once every socket is open and subscribed),
 * `{ type: 'expect', pushes }` (answered `{ type: 'expecting' }`, then `{ type: 'delivered' }`
 * once that many pushes arrived), `{ type: 'count' }` (answered `{ type: 'count', pushes }`) and
 * `{ type: 'close' }`.
 */
import WebSocket from 'ws';
import { jobTopic } from '../../shared/live.js';

export type ClientCommand =
  | { type: 'open'; url: string; connections: number; subscriptions: number; bigTopicSockets: number }
  | { type: 'expect'; pushes: number }
  | { type: 'count' }
  | { type: 'close' };
export type ClientReply = { type: 'ready'; setUpMs: number } | { type: 'expecting' } | { type: 'delivered' } | { type: 'count'; pushes: number };

/** Connections opened (and subscribed) at once while setting up. */
const CONNECT_BATCH = 100;

interface BenchSocket {
  socket: WebSocket;
  /** Resolves at the reply to the next subscribe. */
  subscribed?: () => void;
}

const sockets: BenchSocket[] = [];
let pushes = 0;
let expected = Infinity;
const reply = (message: ClientReply) => process.send?.(message);

function onPush() {
  pushes += 1;
  if (pushes === expected) reply({ type: 'delivered' });
}

function connect(url: string): Promise<BenchSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const bench: BenchSocket = { socket };
    socket.on('message', (data) => {
      const { type } = JSON.parse(data.toString()) as { type: string };
      if (type === 'subscribed') bench.subscribed?.();
      else if (type.startsWith('job.')) onPush();
    });
    socket.once('open', () => resolve(bench));
    socket.once('error', reject);
  });
}

const subscribe = (bench: BenchSocket, topics: string[]) =>
  new Promise<void>((resolve) => {
    bench.subscribed = resolve;
    bench.socket.send(JSON.stringify({ action: 'subscribe', topics }));
  });

async function open({ url, connections, subscriptions, bigTopicSockets }: Extract<ClientCommand, { type: 'open' }>) {
  const started = performance.now();
  for (let start = 0; start < connections; start += CONNECT_BATCH) {
    const batch = await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, connections - start) }, () => connect(url)));
    await Promise.all(
      batch.map((bench, offset) => {
        const i = start + offset;
        return subscribe(bench, [jobTopic(`bench-${i % subscriptions}`), ...(i < bigTopicSockets ? [jobTopic('bench-big')] : [])]);
      }),
    );
    sockets.push(...batch);
  }
  reply({ type: 'ready', setUpMs: performance.now() - started });
}

process.on('message', (command: ClientCommand) => {
  switch (command.type) {
    case 'open':
      open(command).catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
      return;
    case 'expect':
      [pushes, expected] = [0, command.pushes];
      reply({ type: 'expecting' });
      return;
    case 'count':
      reply({ type: 'count', pushes });
      return;
    case 'close':
      for (const { socket } of sockets) socket.terminate();
      process.exit(0);
  }
});
