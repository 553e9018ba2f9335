import { MSG } from '../../shared/messages.js';
import type { PushSubscriptionInput } from '../../shared/schemas/push.js';
import * as z from '../../shared/zod.js';
import { optionalEnv } from './env.js';
import { HttpError } from './errors.js';
import { secretJson } from './secret-json.js';

/**
 * The VAPID keys (RFC 8292) that sign every push and that browsers subscribe with: an
 * uncompressed P-256 public key and its private key, base64url, as `npx web-push
 * generate-vapid-keys --json` prints them, and the contact the push services may write to.
 */
export const vapidKeysSchema = z.object({
  publicKey: z.string().check(z.regex(/^B[A-Za-z0-9_-]{86}$/)),
  privateKey: z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/)),
  subject: z.string().check(z.regex(/^(mailto:|https:\/\/)/)),
});
export type VapidKeys = z.infer<typeof vapidKeysSchema>;

/**
 * In AWS one Secrets Manager secret (JSON, vapidKeysSchema) that the operator fills once after
 * the first deploy (docs/deploy.md); the local stack passes the keys it generated into .local/
 * as a variable. Unreadable keys answer 503.
 */
// Pure: a bundle importing this module for something else leaves the keys (and their variables) out.
export const vapidKeys = /* @__PURE__ */ secretJson({
  name: 'VAPID keys',
  schema: vapidKeysSchema,
  secretArn: () => optionalEnv('vapidSecretArn'),
  localJson: () => optionalEnv('vapidKeys'),
  unavailable: () => new HttpError(503, MSG.notifications.pushServiceUnavailable, undefined, { 'retry-after': '60' }),
});

/**
 * The library, loaded on first send: the function that answers the public key never pays for
 * evaluating it, the sender only when it pushes (`npm run bench -- cold-start`).
 */
const webPushModule = async () => (await import('web-push')).default;

/** What a web push carries to the service worker (web/public/service-worker.js shows it). */
export interface PushPayload {
  title: string;
  body: string;
  /** The app path the notification opens (shared/notification-target.ts). */
  url: string;
}

/** How a push service answered: taken, or the subscription no longer exists (404/410, RFC 8030 §7.3) and is to be forgotten. */
export type PushOutcome = 'sent' | 'gone';

/** A push service may hold a push this long for a browser that is offline (RFC 8030 TTL). */
export const PUSH_TIME_TO_LIVE_SECONDS = 24 * 3600;
const PUSH_REQUEST_TIMEOUT_MS = 5_000;

/**
 * Sends one push: `web-push` encrypts the payload for the subscription (RFC 8291, aes128gcm)
 * and signs the VAPID header; the request goes out with fetch, which, unlike the library's own
 * sender, also reaches the local stack's plain-http receiver. Any answer but 2xx, 404 or 410
 * throws.
 */
export async function sendPush(subscription: PushSubscriptionInput, payload: PushPayload): Promise<PushOutcome> {
  const [webPush, vapidDetails] = await Promise.all([webPushModule(), vapidKeys()]);
  const request = webPush.generateRequestDetails(subscription, JSON.stringify(payload), {
    vapidDetails,
    TTL: PUSH_TIME_TO_LIVE_SECONDS,
    contentEncoding: 'aes128gcm',
  });
  const response = await fetch(request.endpoint, {
    method: request.method,
    headers: request.headers as Record<string, string>,
    body: new Uint8Array(request.body),
    signal: AbortSignal.timeout(PUSH_REQUEST_TIMEOUT_MS),
  });
  if (response.status === 404 || response.status === 410) return 'gone';
  if (!response.ok) throw new Error(`push service answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  return 'sent';
}
