import * as z from '../zod.js';
import { MSG } from '../messages.js';

/** Unpadded base64url of exactly `bytes` bytes (how the Push API's getKey() values are sent). */
const base64UrlOfBytes = (bytes: number) => new RegExp(`^[A-Za-z0-9_-]{${Math.ceil((bytes * 4) / 3)}}$`);

/** The longest endpoint accepted: push services' URLs are a few hundred characters. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1024;

/**
 * A browser's push subscription as PushSubscription.toJSON() gives it (RFC 8030 endpoint,
 * RFC 8291 keys: an uncompressed P-256 public key and a 16-byte secret). The endpoint must be
 * https; the server alone also accepts its local receiver (functions/domain/push-subscriptions.ts).
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
