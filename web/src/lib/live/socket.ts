import type { LiveMessage } from '../../../../shared/api';
import { currentIdToken } from '../auth/session';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A text frame's JSON, if it is a message this app understands (shared/api.ts LiveMessage). */
function parseLiveMessage(data: unknown): LiveMessage | null {
  if (typeof data !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isObject(message)) return null;
  const { type, job, jobId, notification, dispute, review, conversationId } = message;
  if ((type === 'job.posted' || type === 'job.updated') && isObject(job) && typeof job.id === 'string') return message as LiveMessage;
  if (type === 'job.removed' && typeof jobId === 'string') return message as LiveMessage;
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

/**
 * Keeps one WebSocket open to the live API, reconnecting with exponential backoff (with jitter,
 * so a restarted gateway is not hit by every browser at once). The ID token is read on every
 * connect: it identifies the user only at $connect and may have been refreshed meanwhile.
 * `onReconnect` runs when a connection opens after one was lost or failed: pushes may have been
 * missed meanwhile, so listeners re-read what they show. Returns the function that closes it for good.
 */
export function openLiveSocket(webSocketUrl: string, onMessage: (message: LiveMessage) => void, onReconnect: () => void): () => void {
  let socket: WebSocket | null = null;
  let retryTimer: number | undefined;
  let failedAttempts = 0;
  let everDisconnected = false;
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
    socket.onopen = () => {
      failedAttempts = 0;
      if (everDisconnected) onReconnect();
    };
    socket.onmessage = (event: MessageEvent) => {
      const message = parseLiveMessage(event.data);
      if (message) onMessage(message);
    };
    socket.onclose = () => {
      socket = null;
      everDisconnected = true;
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
