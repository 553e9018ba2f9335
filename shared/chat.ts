/** Rules and shapes of the chat shared by the server and the web app. */
import type { ChatMessage } from './api.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A conversation's id names its job and worker, so reading it is one GetItem. */
export const conversationId = (jobId: string, workerId: string) => `${jobId}_${workerId}`;

export function parseConversationId(id: string): { jobId: string; workerId: string } | null {
  const [jobId, workerId, ...rest] = id.split('_');
  if (!jobId || !workerId || rest.length || !UUID.test(jobId) || !UUID.test(workerId)) return null;
  return { jobId, workerId };
}

/** A message's position: its time, then its id (two messages of one millisecond never tie). */
export const messagePosition = (createdAt: string, id: string) => `${createdAt}#${id}`;

const POSITION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isMessagePosition = (value: string) => POSITION.test(value);

/**
 * Adds messages to a conversation's list as a live push, a catch-up read or a resend brings
 * them: each id once (the newer copy wins, e.g. `read` turned true), ordered by position.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}
