import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { optionalEnv } from './env.js';

/** What the functions need of Stripe: the secret API key and the webhook signing secret. */
export interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
}

let keys: Promise<StripeKeys> | undefined;
let client: Promise<Stripe> | undefined;

/**
 * In AWS the keys are one Secrets Manager secret (JSON {secretKey, webhookSecret}), read once
 * per container; the local stack passes them as environment variables.
 */
export function stripeKeys(): Promise<StripeKeys> {
  keys ??= (async () => {
    const secretArn = optionalEnv('stripeSecretArn');
    if (!secretArn) {
      return { secretKey: optionalEnv('stripeSecretKey') ?? '', webhookSecret: optionalEnv('stripeWebhookSecret') ?? '' };
    }
    const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }));
    return JSON.parse(SecretString ?? '{}') as StripeKeys;
  })();
  return keys;
}

/**
 * The official SDK. Locally STRIPE_API_URL points it at the Stripe test-mode simulator;
 * nothing else differs.
 */
export function stripe(): Promise<Stripe> {
  client ??= stripeKeys().then(({ secretKey }) => {
    const apiUrl = optionalEnv('stripeApiUrl');
    const local = apiUrl ? new URL(apiUrl) : undefined;
    return new Stripe(secretKey, {
      maxNetworkRetries: 2,
      ...(local ? { host: local.hostname, port: Number(local.port), protocol: local.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
  });
  return client;
}
