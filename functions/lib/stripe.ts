import type Stripe from 'stripe';
import * as z from '../../shared/zod.js';
import { MSG } from '../../shared/messages.js';
import { optionalEnv } from './env.js';
import { HttpError } from './errors.js';
import { secretJson } from './secret-json.js';

/**
 * What the functions need of Stripe: the secret API key and the signing secrets of the two
 * webhook endpoints (the account's own events, and Connect events of connected accounts).
 */
export const stripeKeysSchema = z.object({
  secretKey: z.string().check(z.regex(/^(sk|rk)_/)),
  webhookSecret: z.string().check(z.startsWith('whsec_')),
  connectWebhookSecret: z.string().check(z.startsWith('whsec_')),
  /**
   * While a webhook secret is rotated, the one before it: deliveries signed with either are
   * accepted until the operator removes it (docs/deploy.md, "Rotating Stripe's keys").
   */
  previousWebhookSecret: z.optional(z.string().check(z.startsWith('whsec_'))),
  previousConnectWebhookSecret: z.optional(z.string().check(z.startsWith('whsec_'))),
});
export type StripeKeys = z.infer<typeof stripeKeysSchema>;

/**
 * The Stripe API version the handlers are written for: the installed SDK's (its types describe
 * this version's objects; a unit test keeps the two equal, so upgrading the SDK is a decision to
 * move the pin). The client asks for it on every request, `npm run stripe:webhooks` creates the
 * webhook endpoints with it, and the webhook handler refuses an event of any other version.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/**
 * Each Stripe request may take 4 s and is retried once (the SDK adds idempotency keys to
 * retried POSTs): about 8.5 s at worst, where the SDK's default is 80 s with no retry. The
 * functions that call Stripe run with STRIPE_FUNCTION_TIMEOUT_SECONDS (functions/routes.ts),
 * room for two such calls and the table writes around them.
 */
export const STRIPE_CLIENT_LIMITS = { timeoutMs: 4_000, maxNetworkRetries: 1 } as const;

const unavailable = () => new HttpError(503, MSG.payments.unavailable, undefined, { 'retry-after': '60' });

/**
 * The keys are one Secrets Manager secret (JSON, see stripeKeysSchema), in AWS as in the local
 * stack; unreadable keys answer 503.
 */
// Pure: a bundle importing this module for something else leaves the keys (and their variables) out.
export const stripeKeys = /* @__PURE__ */ secretJson({
  name: 'Stripe keys',
  schema: stripeKeysSchema,
  secretArn: () => optionalEnv('stripeSecretArn'),
  unavailable,
});

/**
 * The event a webhook delivery carries, if its signature is valid with one of `secrets` (the
 * endpoint's, then the one before it during a rotation; Stripe signs with both while the old
 * one lasts); undefined otherwise.
 */
export function verifiedEvent(StripeClient: typeof Stripe, rawBody: string, signature: string, secrets: readonly string[]): Stripe.Event | undefined {
  for (const secret of secrets) {
    try {
      return StripeClient.webhooks.constructEvent(rawBody, signature, secret);
    } catch {
      // Not this secret: the next one, if any.
    }
  }
  return undefined;
}

/** The client of the secret key last read: a rotated key (stripeKeys) gets a client of its own. */
let client: { secretKey: string; stripe: Stripe } | undefined;

/**
 * The SDK's module, loaded on first use: the functions that bundle it pay for evaluating it
 * only when they call Stripe, not in every cold start (`npm run bench -- cold-start`).
 */
export const stripeModule = async (): Promise<typeof Stripe> => (await import('stripe')).default;

/**
 * The official SDK with the current secret key. Locally STRIPE_API_URL points it at the Stripe
 * test-mode simulator; nothing else differs.
 */
export async function stripe(): Promise<Stripe> {
  const [{ secretKey }, StripeClient] = await Promise.all([stripeKeys(), stripeModule()]);
  if (client?.secretKey === secretKey) return client.stripe;
  const apiUrl = optionalEnv('stripeApiUrl');
  const local = apiUrl ? new URL(apiUrl) : undefined;
  const created = new StripeClient(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    timeout: STRIPE_CLIENT_LIMITS.timeoutMs,
    maxNetworkRetries: STRIPE_CLIENT_LIMITS.maxNetworkRetries,
    ...(local ? { host: local.hostname, port: Number(local.port), protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  // Stripe refusing the key (401): the operator expired it in the dashboard before this function
  // read the new one from the secret. The caller is answered 503 to retry (stripe-errors.ts), and
  // the retry reads the secret again rather than waiting out its maximum age.
  created.on('response', (response: Stripe.ResponseEvent) => {
    if (response.status === 401) stripeKeys.readAgain();
  });
  client = { secretKey, stripe: created };
  return client.stripe;
}
