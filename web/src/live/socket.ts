import type { JobSummary } from '../../../shared/api';
import { currentIdToken } from '../auth/session';

/** What the server pushes on the WebSocket (functions/events/job-feed.ts). */
export type LiveMessage = { type: 'job.posted' | 'job.updated'; job: JobSummary } | { type: 'job.removed'; jobId: string };

const utf8 = new TextDecoder();

/** A frame's JSON, whether the gateway sent it as a text or a binary frame. */
function parseLiveMessage(data: unknown): LiveMessage | null {
  const text = typeof data === 'string' ? data : data instanceof ArrayBuffer ? utf8.decode(data) : null;
  if (text === null) return null;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, job, jobId } = message as Record<string, unknown>;
  if ((type === 'job.posted' || type === 'job.updated') && typeof job === 'object' && job !== null && 'id' in job) {
    return { type, job: job as JobSummary };
  }
  if (type === 'job.removed' && typeof jobId === 'string') return { type, jobId };
  return null;
}

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * Keeps one WebSocket open to the live API, reconnecting with exponential backoff (with jitter,
 * so a restarted gateway is not hit by every browser at once). The ID token is read on every
 * connect: it identifies the user only at $connect and may have been refreshed meanwhile.
 * Returns the function that closes it for good.
 */
export function openLiveSocket(webSocketUrl: string, onMessage: (message: LiveMessage) => void): () => void {
  let socket: WebSocket | null = null;
  let retryTimer: number | undefined;
  let failedAttempts = 0;
  let closed = false;

  function scheduleReconnect(): void {
    const ceiling = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** failedAttempts);
    failedAttempts += 1;
    retryTimer = window.setTimeout(() => void connect(), ceiling / 2 + Math.random() * (ceiling / 2));
  }

  async function connect(): Promise<void> {
    const token = await currentIdToken();
    if (closed) return;
    socket = new WebSocket(`${webSocketUrl}?token=${encodeURIComponent(token ?? 'anonymous')}`);
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      failedAttempts = 0;
    };
    socket.onmessage = (event: MessageEvent) => {
      const message = parseLiveMessage(event.data);
      if (message) onMessage(message);
    };
    socket.onclose = () => {
      socket = null;
      if (!closed) scheduleReconnect();
    };
  }

  void connect();
  return () => {
    closed = true;
    window.clearTimeout(retryTimer);
    socket?.close();
  };
}
