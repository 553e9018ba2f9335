import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type Stripe from 'stripe';
import * as z from '../../shared/zod.js';
import { MSG } from '../../shared/messages.js';
import { optionalEnv } from './env.js';
import { HttpError } from './errors.js';
import { logger } from './logger.js';

/**
 * What the functions need of Stripe: the secret API key and the signing secrets of the two
 * webhook endpoints (the account's own events, and Connect events of connected accounts).
 */
export const stripeKeysSchema = z.object({
  secretKey: z.string().check(z.regex(/^(sk|rk)_/)),
  webhookSecret: z.string().check(z.startsWith('whsec_')),
  connectWebhookSecret: z.string().check(z.startsWith('whsec_')),
});
export type StripeKeys = z.infer<typeof stripeKeysSchema>;

/**
 * Each Stripe request may take 4 s and is retried once (the SDK adds idempotency keys to
 * retried POSTs): about 8.5 s at worst, where the SDK's default is 80 s with no retry. The
 * functions that call Stripe run with STRIPE_FUNCTION_TIMEOUT_SECONDS (functions/routes.ts),
 * room for two such calls and the table writes around them.
 */
export const STRIPE_CLIENT_LIMITS = { timeoutMs: 4_000, maxNetworkRetries: 1 } as const;

const unavailable = () => new HttpError(503, MSG.payments.unavailable, undefined, { 'retry-after': '60' });

/**
 * In AWS the keys are one Secrets Manager secret (JSON, see stripeKeysSchema) that the operator
 * fills after the first deploy; the local stack passes them as environment variables. A
 * secret not filled in yet (the deploy stores a random placeholder) or not valid is a 503.
 */
async function loadKeys(): Promise<StripeKeys> {
  const secretArn = optionalEnv('stripeSecretArn');
  const raw = secretArn
    ? (await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString
    : JSON.stringify({
        secretKey: optionalEnv('stripeSecretKey'),
        webhookSecret: optionalEnv('stripeWebhookSecret'),
        connectWebhookSecret: optionalEnv('stripeConnectWebhookSecret'),
      });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw ?? '');
  } catch {
    parsed = undefined;
  }
  const keys = stripeKeysSchema.safeParse(parsed);
  if (!keys.success) {
    logger.error('Stripe keys are not set: fill the secret as docs/deploy.md describes', { fields: keys.error.issues.map((issue) => issue.path.join('.')) });
    throw unavailable();
  }
  return keys.data;
}

let keys: Promise<StripeKeys> | undefined;
let client: Stripe | undefined;

/**
 * The keys, read once per container once they were read successfully. A failed read is not
 * kept: the next call reads again, so a secret filled in later or a passing Secrets Manager
 * error heals without recycling the function. Failures answer 503.
 */
export function stripeKeys(): Promise<StripeKeys> {
  if (!keys) {
    const loading = loadKeys().catch((error: unknown) => {
      if (keys === loading) keys = undefined;
      if (error instanceof HttpError) throw error;
      logger.error('Stripe keys could not be read', { error });
      throw unavailable();
    });
    keys = loading;
  }
  return keys;
}

/**
 * The SDK's module, loaded on first use: the functions that bundle it pay for evaluating it
 * only when they call Stripe, not in every cold start (`npm run bench -- cold-start`).
 */
export const stripeModule = async (): Promise<typeof Stripe> => (await import('stripe')).default;

/**
 * The official SDK. Locally STRIPE_API_URL points it at the Stripe test-mode simulator;
 * nothing else differs.
 */
export async function stripe(): Promise<Stripe> {
  if (client) return client;
  const [{ secretKey }, StripeClient] = await Promise.all([stripeKeys(), stripeModule()]);
  const apiUrl = optionalEnv('stripeApiUrl');
  const local = apiUrl ? new URL(apiUrl) : undefined;
  client ??= new StripeClient(secretKey, {
    timeout: STRIPE_CLIENT_LIMITS.timeoutMs,
    maxNetworkRetries: STRIPE_CLIENT_LIMITS.maxNetworkRetries,
    ...(local ? { host: local.hostname, port: Number(local.port), protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  return client;
}
