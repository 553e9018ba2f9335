/**
 * `npm run stripe:webhooks -- --config <SiteUrl>/config.json --secret-id <StripeKeys secret ARN>`:
 * makes the Stripe account's two webhook endpoints what the code needs (docs/deploy.md, first
 * deploy step 4). Each endpoint (STRIPE_WEBHOOK_ENDPOINTS: its path under the deployment's API
 * and the event types the rules consume from it) is created, or updated in place when one
 * with its URL exists; a created endpoint's signing secret is stored in the Stripe secret's
 * field for it (Stripe shows a secret only when it creates the endpoint). Endpoints are
 * created with the API version the handlers are written for (STRIPE_API_VERSION), which Stripe
 * cannot change on an endpoint: one of another version is replaced (a new endpoint, its secret
 * stored, then the old one deleted). Run with the deployment's AWS credentials and region; the
 * Stripe API key is the one in the secret.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { STRIPE_WEBHOOK_ENDPOINTS, type StripeWebhookEndpoint } from '../functions/routes.js';
import { STRIPE_API_VERSION } from '../functions/lib/stripe.js';
import { runtimeConfigSchema } from '../shared/runtime-config.js';

/** What the command needs of the Stripe SDK (the official client, or a test's stand-in). */
export interface WebhookEndpointsApi {
  list(params: { limit: number }): {
    autoPagingToArray(options: { limit: number }): Promise<Array<Pick<Stripe.WebhookEndpoint, 'id' | 'url' | 'enabled_events' | 'status' | 'api_version'>>>;
  };
  create(params: Stripe.WebhookEndpointCreateParams): Promise<Pick<Stripe.WebhookEndpoint, 'id' | 'secret'>>;
  update(id: string, params: Stripe.WebhookEndpointUpdateParams): Promise<Pick<Stripe.WebhookEndpoint, 'id'>>;
  del(id: string): Promise<unknown>;
}

export interface EndpointChange {
  readonly endpoint: StripeWebhookEndpoint;
  readonly url: string;
  readonly action: 'created' | 'updated' | 'replaced';
  readonly events: readonly string[];
}

/** More endpoints than an account has (Stripe allows 16). */
const ENDPOINT_LIMIT = 100;

/**
 * Creates or updates both endpoints under `apiUrl`; returns what it did, the signing secrets of
 * the endpoints it created, by the secret's field, and the endpoints of another API version it
 * replaced, which the caller deletes once the new secrets are stored (retireReplaced).
 */
export async function syncWebhookEndpoints(
  apiUrl: string,
  webhookEndpoints: WebhookEndpointsApi,
): Promise<{ changes: EndpointChange[]; secrets: Partial<Record<'webhookSecret' | 'connectWebhookSecret', string>>; replaced: string[] }> {
  const existing = await webhookEndpoints.list({ limit: ENDPOINT_LIMIT }).autoPagingToArray({ limit: ENDPOINT_LIMIT });
  const changes: EndpointChange[] = [];
  const secrets: Partial<Record<'webhookSecret' | 'connectWebhookSecret', string>> = {};
  const replaced: string[] = [];
  for (const [endpoint, { path, secret, events }] of Object.entries(STRIPE_WEBHOOK_ENDPOINTS) as Array<[StripeWebhookEndpoint, (typeof STRIPE_WEBHOOK_ENDPOINTS)[StripeWebhookEndpoint]]>) {
    const url = `${apiUrl.replace(/\/$/, '')}${path}`;
    const enabledEvents = [...events] as Stripe.WebhookEndpointCreateParams.EnabledEvent[];
    const found = existing.find((candidate) => candidate.url === url);
    if (found?.api_version === STRIPE_API_VERSION) {
      await webhookEndpoints.update(found.id, { enabled_events: enabledEvents, disabled: false });
      changes.push({ endpoint, url, action: 'updated', events });
      continue;
    }
    if (found) replaced.push(found.id);
    const created = await webhookEndpoints.create({
      url,
      api_version: STRIPE_API_VERSION as Stripe.WebhookEndpointCreateParams.ApiVersion,
      enabled_events: enabledEvents,
      // The Connect endpoint receives the connected accounts' events (Stripe sends them nowhere else).
      ...(endpoint === 'connect' ? { connect: true } : {}),
      description: `Odd jobs: ${endpoint === 'connect' ? "connected accounts' events" : "the account's own events"}`,
    });
    if (!created.secret) throw new Error(`Stripe created ${url} (${created.id}) without a signing secret`);
    secrets[secret] = created.secret;
    changes.push({ endpoint, url, action: found ? 'replaced' : 'created', events });
  }
  return { changes, secrets, replaced };
}

/** The deployment's API URL, from its config.json (the one the web app reads). */
async function apiUrlOf(configUrl: string): Promise<string> {
  const response = await fetch(configUrl);
  if (!response.ok) throw new Error(`${configUrl} answered ${response.status}: give --config <SiteUrl>/config.json`);
  return runtimeConfigSchema.parse(await response.json()).apiUrl;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { config: { type: 'string' }, 'secret-id': { type: 'string' } } });
  if (!values.config || !values['secret-id']) {
    throw new Error('Usage: npm run stripe:webhooks -- --config <SiteUrl>/config.json --secret-id <StripeKeys secret ARN (OddJobsData)>');
  }
  const secretId = values['secret-id'];
  const secrets = new SecretsManagerClient({});
  const stored = JSON.parse((await secrets.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString ?? '{}') as Record<string, unknown>;
  if (typeof stored.secretKey !== 'string') throw new Error(`${secretId} holds no secretKey: put the Stripe secret key in it first (docs/deploy.md)`);
  const apiUrl = await apiUrlOf(values.config);
  const webhookEndpoints = new Stripe(stored.secretKey).webhookEndpoints;
  const { changes, secrets: created, replaced } = await syncWebhookEndpoints(apiUrl, webhookEndpoints);
  if (Object.keys(created).length) {
    await secrets.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify({ ...stored, ...created }) }));
  }
  // Only now: until the new secrets are stored, the old endpoints are the ones that deliver.
  for (const id of replaced) await webhookEndpoints.del(id);
  for (const change of changes) console.log(`${change.action} ${change.url} (Stripe API ${STRIPE_API_VERSION}): ${change.events.join(', ')}`);
  if (Object.keys(created).length) console.log(`Stored the signing secrets of the created endpoints in ${secretId} (${Object.keys(created).join(', ')}).`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
