import type { LiveMessage } from '../../../../shared/api';
import { LIVE_LIMITS, PING_INTERVAL_MS, type LiveReply, type LiveRequest } from '../../../../shared/live';
import { currentIdToken } from '../auth/session';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * API Gateway's own answer to a message it did not hand to the function: throttled by the
 * stage ("Too Many Requests"), or the function failed ("Internal server error"). Either way the
 * message was lost, and nothing says which one it was.
 */
interface RefusedMessage {
  type: 'refused';
}

/** A text frame's JSON: a push this app understands (shared/api.ts LiveMessage), the server's reply (shared/live.ts) or API Gateway's refusal. */
function parseFrame(data: unknown): LiveMessage | LiveReply | RefusedMessage | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(message)) return null;
  const { type, job, jobId, notification, dispute, review, conversationId, cursor } = message;
  if (type === 'pong') return message as LiveReply;
  if (type === undefined && typeof message.message === 'string' && typeof message.connectionId === 'string') return { type: 'refused' };
  if (type === 'subscribed' && typeof cursor === 'string' && typeof message.complete === 'boolean') return message as LiveReply;
  if ((type === 'job.posted' || type === 'job.updated') && isObject(job) && typeof job.id === 'string' && typeof cursor === 'string') return message as LiveMessage;
  if (type === 'job.removed' && typeof jobId === 'string' && typeof cursor === 'string') return message as LiveMessage;
  if (type === 'notification' && isObject(notification) && typeof notification.id === 'string') return message as LiveMessage;
  if (type === 'notifications.read' && (typeof message.notificationId === 'string' || message.notificationId === null)) return message as LiveMessage;
  if (type === 'dispute.message' && isObject(message.message) && typeof message.message.disputeId === 'string') return message as LiveMessage;
  if (type === 'dispute.updated' && isObject(dispute) && typeof dispute.id === 'string') return message as LiveMessage;
  if (type === 'review.saved' && isObject(review) && typeof review.revieweeId === 'string') return message as LiveMessage;
  if (typeof conversationId === 'string') {
    if (type === 'chat.message' && isObject(message.message) && typeof message.message.id === 'string') return message as LiveMessage;
    if (type === 'chat.read' && typeof message.readerId === 'string' && typeof message.readUpTo === 'string') return message as LiveMessage;
    if (type === 'chat.updated') return message as LiveMessage;
  }
  return null;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/** A reconnect's subscribe reply that never comes counts as a catch-up that failed. */
const CATCH_UP_TIMEOUT_MS = 10_000;

export interface LiveSocketHandlers {
  onMessage(message: LiveMessage): void;
  /**
   * A connection opened after one was lost or failed. `caughtUp`: the server sent every job
   * change of the subscribed topics missed meanwhile; false, lists read again what they show.
   */
  onReconnect(caughtUp: boolean): void;
}

export interface LiveSocket {
  /** Starts receiving the changes of these topics (shared/live.ts). */
  subscribe(topics: readonly string[]): void;
  unsubscribe(topics: readonly string[]): void;
  /** Closes it for good. */
  close(): void;
}

const inChunks = (topics: readonly string[]) =>
  Array.from({ length: Math.ceil(topics.length / LIVE_LIMITS.topicsPerMessage) }, (_, i) => topics.slice(i * LIVE_LIMITS.topicsPerMessage, (i + 1) * LIVE_LIMITS.topicsPerMessage));

/**
 * Keeps one WebSocket open to the live API, reconnecting with exponential backoff (with jitter,
 * so a restarted gateway is not hit by every browser at once). The ID token is read on every
 * connect: it identifies the user only at $connect and may have been refreshed meanwhile.
 * It subscribes to the topics of what the app shows, pings every PING_INTERVAL_MS so API
 * Gateway's idle timeout never closes it, and keeps the cursor of the newest job push: a
 * reconnect resubscribes from that cursor and the server sends only what was missed.
 */
export function openLiveSocket(webSocketUrl: string, initialTopics: readonly string[], handlers: LiveSocketHandlers): LiveSocket {
  const topics = new Set(initialTopics);
  let socket: WebSocket | null = null;
  let retryTimer: number | undefined;
  let pingTimer: number | undefined;
  let catchUpTimer: number | undefined;
  let failedAttempts = 0;
  let everDisconnected = false;
  let closed = false;
  let cursor: string | null = null;
  /** Subscribe replies a reconnect still waits for, and whether those received so far caught up. */
  let awaitedReplies = 0;
  let caughtUp = true;
  /** Topics unsubscribed on this connection: a refused unsubscribe is sent again with the others. */
  const dropped = new Set<string>();
  let resyncTimer: number | undefined;
  let refusals = 0;

  const send = (request: LiveRequest) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
  };
  const advance = (next: string) => {
    if (cursor === null || next > cursor) cursor = next;
  };

  function reconnected(complete: boolean): void {
    window.clearTimeout(catchUpTimer);
    awaitedReplies = 0;
    refusals = 0;
    handlers.onReconnect(complete);
  }

  /** Waits a jittered, doubling delay: 1 s, 2 s, 4 s … up to 30 s, `attempt` counting from 0. */
  const backoff = (attempt: number, then: () => void) => {
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
    return window.setTimeout(then, ceiling / 2 + Math.random() * (ceiling / 2));
  };

  function scheduleReconnect(): void {
    retryTimer = backoff(failedAttempts, () => void connect());
    failedAttempts += 1;
  }

  /**
   * Subscribes to every topic shown, from the cursor when there is one, and unsubscribes every
   * topic dropped. Once the replies are in, `onReconnect` says whether the server sent all that
   * was missed (a catch-up), or the lists read again.
   */
  function resubscribe(since: string | undefined): void {
    const chunks = inChunks([...topics]);
    for (const chunk of chunks) send({ action: 'subscribe', topics: chunk, ...(since ? { since } : {}) });
    for (const chunk of inChunks([...dropped])) send({ action: 'unsubscribe', topics: chunk });
    window.clearTimeout(catchUpTimer);
    // Without a cursor nothing tells what was missed; without topics nothing was.
    if (!chunks.length || !since) return reconnected(!chunks.length);
    awaitedReplies = chunks.length;
    caughtUp = true;
    catchUpTimer = window.setTimeout(() => reconnected(false), CATCH_UP_TIMEOUT_MS);
  }

  function onOpen(): void {
    failedAttempts = 0;
    refusals = 0;
    dropped.clear();
    pingTimer = window.setInterval(() => send({ action: 'ping' }), PING_INTERVAL_MS);
    if (everDisconnected) return resubscribe(cursor ?? undefined);
    for (const chunk of inChunks([...topics])) send({ action: 'subscribe', topics: chunk });
  }

  /**
   * A message was refused (throttled at a busy moment, or its function failed): a subscribe or
   * an unsubscribe may be the lost one. After a backoff (so a throttled stage is not hit again at
   * once), everything is sent again from the cursor, as after a reconnect: a topic subscribed
   * twice is subscribed once, and the catch-up brings what the lost subscribe would have.
   */
  function onRefused(): void {
    if (resyncTimer !== undefined) return;
    resyncTimer = backoff(refusals, () => {
      resyncTimer = undefined;
      resubscribe(cursor ?? undefined);
    });
    refusals += 1;
  }

  function onFrame(frame: LiveMessage | LiveReply | RefusedMessage): void {
    if (frame.type === 'pong') return;
    if (frame.type === 'refused') return onRefused();
    if (frame.type === 'subscribed') {
      advance(frame.cursor);
      if (awaitedReplies === 0) return;
      caughtUp &&= frame.complete;
      awaitedReplies -= 1;
      if (awaitedReplies === 0) reconnected(caughtUp);
      return;
    }
    if (frame.type === 'job.posted' || frame.type === 'job.updated' || frame.type === 'job.removed') advance(frame.cursor);
    handlers.onMessage(frame);
  }

  async function connect(): Promise<void> {
    const token = await currentIdToken();
    if (closed) return;
    socket = new WebSocket(`${webSocketUrl}?token=${encodeURIComponent(token ?? 'anonymous')}`);
    socket.onopen = onOpen;
    socket.onmessage = (event: MessageEvent) => {
      const frame = parseFrame(event.data);
      if (frame) onFrame(frame);
    };
    socket.onclose = () => {
      socket = null;
      everDisconnected = true;
      window.clearInterval(pingTimer);
      window.clearTimeout(catchUpTimer);
      window.clearTimeout(resyncTimer);
      resyncTimer = undefined;
      awaitedReplies = 0;
      if (!closed) scheduleReconnect();
    };
  }

  void connect();
  return {
    subscribe(added) {
      const fresh = added.filter((topic) => !topics.has(topic));
      fresh.forEach((topic) => {
        topics.add(topic);
        dropped.delete(topic);
      });
      for (const chunk of inChunks(fresh)) send({ action: 'subscribe', topics: chunk });
    },
    unsubscribe(removed) {
      const held = removed.filter((topic) => topics.delete(topic));
      held.forEach((topic) => dropped.add(topic));
      // A connection holds at most this many topics, so older drops matter no more.
      for (const oldest of dropped) {
        if (dropped.size <= LIVE_LIMITS.topicsPerConnection) break;
        dropped.delete(oldest);
      }
      for (const chunk of inChunks(held)) send({ action: 'unsubscribe', topics: chunk });
    },
    close() {
      closed = true;
      window.clearTimeout(retryTimer);
      window.clearInterval(pingTimer);
      window.clearTimeout(catchUpTimer);
      window.clearTimeout(resyncTimer);
      socket?.close();
    },
  };
}
