import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { JobPaymentStart, JobSummary } from '../../shared/api.js';
import { jobInvariantProblems, type JobLedger } from '../../shared/ledger.js';
import type { PaymentAccount } from '../../shared/payments.js';
import type { ReconciliationResult } from '../../functions/money/reconciliation.js';
import { RECURRING_SCHEDULES } from '../../functions/routes.js';
import { LOCAL_CREDENTIALS, LOCAL_STRIPE_KEYS, recurringScheduleName, type LocalStack } from '../../infra/local/stack.js';
import type { OnboardingFinish } from '../../infra/local/stripe-simulator/onboarding.js';
import { api, createUser, type TestUser } from './local-stack.js';

/** The page origin the browser would send; Stripe's return URLs are built on it. */
export const APP_ORIGIN = 'http://127.0.0.1:5173';

/** The official SDK on the stack's simulator, as the tests' "Stripe dashboard". */
export function stripeOf(stack: LocalStack): Stripe {
  const url = new URL(stack.urls.stripe);
  return new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: url.hostname, port: Number(url.port), protocol: 'http', maxNetworkRetries: 0 });
}

/** The Stripe keys' secret as the operator edits it (`aws secretsmanager get-secret-value` / `put-secret-value`). */
export function stripeKeysSecret(stack: LocalStack) {
  const client = new SecretsManagerClient({ endpoint: stack.urls.secretsManager, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const SecretId = stack.secrets.stripeKeysArn;
  return {
    read: async (): Promise<Record<string, string>> => JSON.parse((await client.send(new GetSecretValueCommand({ SecretId }))).SecretString ?? '') as Record<string, string>,
    /** Replaces the whole value (JSON of the fields given, or any text, such as the deploy's placeholder). */
    put: async (value: Record<string, string> | string): Promise<void> => {
      await client.send(new PutSecretValueCommand({ SecretId, SecretString: typeof value === 'string' ? value : JSON.stringify(value) }));
    },
  };
}

/** Waits until Stripe's webhooks went through the bus and their handlers finished. */
export async function settle(stack: LocalStack): Promise<void> {
  await stack.stripe.idle();
  await stack.events.idle();
  await stack.queues.idle();
}

/**
 * Connects the user's payment account and completes onboarding on the simulator's page, paying
 * out to a debit card that takes Instant Payouts, (`complete-without-instant`) one that does not,
 * or (`complete-failing-payouts`) one whose payouts fail.
 */
export async function connectPaymentAccount(stack: LocalStack, user: TestUser, finish: OnboardingFinish = 'complete'): Promise<PaymentAccount> {
  const link = await api<{ accountLinkUrl: string }>(stack, 'POST', '/payments/account', { token: user.idToken, headers: { origin: APP_ORIGIN } });
  if (link.status !== 200) throw new Error(`connect failed: ${JSON.stringify(link.body)}`);
  const completed = await fetch(`${link.body.accountLinkUrl}/${finish}`, { method: 'POST', redirect: 'manual' });
  if (completed.status !== 303) throw new Error(`onboarding failed: ${completed.status}`);
  await settle(stack);
  return (await api<PaymentAccount>(stack, 'POST', '/payments/account/status', { token: user.idToken })).body;
}

export const TEST_CARDS = { succeeds: 'pm_card_visa', declined: 'pm_card_chargeDeclined', alwaysAuthenticates: 'pm_card_authenticationRequired' } as const;

/** The cardholder answers the bank's 3-D Secure challenge of a PaymentIntent on the simulator's page. */
export async function authenticate(stack: LocalStack, paymentIntentId: string, answer: 'complete' | 'fail' = 'complete'): Promise<void> {
  const response = await fetch(`${stack.urls.stripe}/authenticate/${paymentIntentId}/${answer}`, { method: 'POST', redirect: 'manual' });
  if (response.status !== 200) throw new Error(`authentication failed: ${response.status}`);
}

/**
 * Posts a job and pays for it as the browser would: create, confirm the card (answering its
 * bank's challenge if it asks for one), confirm to the API.
 */
export async function postPaidJob(stack: LocalStack, poster: TestUser, body: object, card: string = TEST_CARDS.succeeds): Promise<JobSummary> {
  const started = await api<JobPaymentStart>(stack, 'POST', '/jobs', { token: poster.idToken, body });
  if (started.status !== 201) throw new Error(`POST /jobs failed: ${JSON.stringify(started.body)}`);
  const intent = await stripeOf(stack).paymentIntents.confirm(started.body.payment.paymentIntentId, { payment_method: card });
  if (intent.status === 'requires_action') await authenticate(stack, intent.id);
  const confirmed = await api<JobSummary>(stack, 'POST', '/payments/confirm', {
    token: poster.idToken,
    body: { paymentIntentId: started.body.payment.paymentIntentId },
  });
  if (confirmed.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirmed.body)}`);
  return confirmed.body;
}

/** A poster who can post: signed up, verified, signed in, payment account connected. */
export async function createPoster(stack: LocalStack, input: { name?: string } = {}): Promise<TestUser> {
  const poster = await createUser(stack, { role: 'poster', ...input });
  await connectPaymentAccount(stack, poster);
  return poster;
}

/**
 * A job's ledger as the admin reads it once the stack's events have settled, checked whole: its
 * invariants hold (balanced, no more out than in but the recorded loss) and reconciliation finds
 * no difference between it and Stripe.
 */
export async function ledgerAgreeingWithStripe(stack: LocalStack, admin: TestUser, job: { id: string }): Promise<JobLedger> {
  await settle(stack);
  const ledger = (await api<JobLedger>(stack, 'GET', `/admin/jobs/${job.id}/ledger`, { token: admin.idToken })).body;
  expect(jobInvariantProblems(job.id, ledger.movements)).toEqual([]);
  const reconciled = (await stack.functions.invoke(recurringScheduleName('reconciliation'), RECURRING_SCHEDULES.reconciliation, {
    graceSeconds: 0,
    since: new Date(Date.now() - 3_600_000).toISOString(),
  })) as ReconciliationResult;
  expect(reconciled.differences.filter((difference) => difference.jobId === job.id)).toEqual([]);
  return ledger;
}
