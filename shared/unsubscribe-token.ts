import { NOTIFICATION_TYPES, type NotificationType } from './api.js';
import { fromBase64Url } from './base64url.js';

/** What an email's unsubscribe token names: whose email of which type to stop. */
export interface UnsubscribeSubject {
  userId: string;
  type: NotificationType;
}

const isNotificationType = (value: unknown): value is NotificationType => (NOTIFICATION_TYPES as readonly unknown[]).includes(value);

/**
 * A token is `<payload>.<signature>`, the payload base64url JSON {u: user id, t: type}. This
 * reads the payload WITHOUT checking the signature: the unsubscribe page shows which emails
 * the link is for; only the server's check (functions/lib/unsubscribe-tokens.ts) lets it act.
 */
export function readUnsubscribeToken(token: string): { subject: UnsubscribeSubject; payload: string; signature: string } | undefined {
  const [payload, signature, ...rest] = token.split('.');
  if (!payload || !signature || rest.length > 0) return undefined;
  const json = fromBase64Url(payload);
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  const { u, t } = (parsed ?? {}) as { u?: unknown; t?: unknown };
  if (typeof u !== 'string' || u.length === 0 || u.length > 100 || !isNotificationType(t)) return undefined;
  return { subject: { userId: u, type: t }, payload, signature };
}

/** Where the unsubscribe page is (the email's visible link) and its token parameter. */
export const UNSUBSCRIBE_PATH = '/unsubscribe';
export const UNSUBSCRIBE_TOKEN_PARAM = 'token';
