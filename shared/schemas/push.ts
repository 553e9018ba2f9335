import * as z from '../zod.js';
import { MSG } from '../messages.js';

/** Unpadded base64url of exactly `bytes` bytes (how the Push API's getKey() values are sent). */
const base64UrlOfBytes = (bytes: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`);

/** The longest endpoint accepted: push services' URLs are a few hundred characters. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1024;

/**
 * The push services of the browsers, by the hosts of their endpoints: Chrome's (Firebase Cloud
 * Messaging), Firefox's (Mozilla autopush), Safari's (Apple) and Edge's (Windows Push
 * Notification Services, one host per region: `*.` matches any subdomain). The server posts
 * only to these (it would otherwise post to any host a user names).
 */
export const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'] as const;

/** Whether an https endpoint is at one of the push services (PUSH_SERVICE_HOSTS). */
export function isPushServiceEndpoint(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' || url.port !== '' || url.username !== '' || url.password !== '') return false;
  return PUSH_SERVICE_HOSTS.some((host) => (host.startsWith('*.') ? url.hostname.endsWith(host.slice(1)) : url.hostname === host));
}

/**
 * A browser's push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint,
 * RFC 8291 keys: an uncompressed P-256 public key and a 16-byte secret). The endpoint must be
 * https at a push service; the server alone also accepts its local receiver
 * (functions/notifications/push-subscriptions.ts), so the schema checks the URL's form only.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().check(
    z.maxLength(PUSH_ENDPOINT_MAX_LENGTH, MSG.notifications.pushEndpointInvalid),
    z.refine((endpoint) => URL.canParse(endpoint) && ['https:', 'http:'].includes(new URL(endpoint).protocol), MSG.notifications.pushEndpointInvalid),
  ),
  keys: z.strictObject({
    p256dh: z.string().check(z.regex(base64UrlOfBytes(65), MSG.notifications.pushKeysInvalid), z.startsWith('B', MSG.notifications.pushKeysInvalid)),
    auth: z.string().check(z.regex(base64UrlOfBytes(16), MSG.notifications.pushKeysInvalid)),
  }),
});
export type PushSubscriptionInput = z.output<typeof pushSubscriptionSchema>;

/** DELETE /me/push-subscriptions: which of the caller's subscriptions (`?endpoint=`). */
export const pushEndpointQuerySchema = z.object({ endpoint: z.string().check(z.minLength(1, MSG.notifications.pushEndpointInvalid), z.maxLength(PUSH_ENDPOINT_MAX_LENGTH, MSG.notifications.pushEndpointInvalid)) });
