/** Set-up through the API for browser tests: the steps a test is not about, done as the app does them. */
import { randomUUID } from 'node:crypto';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import Stripe from 'stripe';
import type { Application, JobPaymentStart, JobSummary } from '../../shared/api.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { mailedCode } from '../../infra/local/mailbox.js';
import { LOCAL_STRIPE_KEYS } from '../../infra/local/stack.js';
import { SIGN_UP_ROLE_METADATA } from '../../shared/roles.js';
import { TEST_CARDS } from '../support/payments.js';
import { e2eTarget } from './target.js';

class ApiCallError extends Error {
  constructor(
    message: string,
    readonly response: Response,
  ) {
    super(message);
  }
}

/**
 * The demo posters post in many files of the suite, more often than the 3 payments a minute a
 * poster may start (shared/limits.ts): like a well-behaved client, wait as long as a 429 says.
 */
async function honouringRetryAfter<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiCallError) || error.response.status !== 429) throw error;
      await new Promise((resolve) => setTimeout(resolve, Number(error.response.headers.get('retry-after') ?? 5) * 1000));
    }
  }
}

/** A user's ID token (a demo user's unless a password is given), from the user pool as the app signs in. */
export async function idTokenOf(email: string, password = DEMO_PASSWORD): Promise<string> {
  const config = e2eTarget().runtimeConfig;
  const result = await cognitoClient(config.userPoolEndpoint ?? '').send(
    new InitiateAuthCommand({
      ClientId: config.userPoolClientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  return result.AuthenticationResult?.IdToken ?? '';
}

export async function callApi<T>(method: 'GET' | 'POST' | 'DELETE', path: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(`${e2eTarget().runtimeConfig.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiCallError(`${method} ${path}: ${response.status} ${await response.text()}`, response);
  // A deletion answers 204, with no body.
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/**
 * Posts and pays for a job as the post-job screen does (create, confirm the card on the Stripe
 * simulator, answering its bank's challenge if it asks, confirm to the API), so this test does
 * not hang on the card step's screen.
 */
export async function postPaidJob(posterToken: string, title: string, card: string = TEST_CARDS.succeeds, address = { street: '410 Red River St', city: 'Austin', state: 'TX' }): Promise<JobSummary> {
  const started = await honouringRetryAfter(() => callApi<JobPaymentStart>('POST', '/jobs', posterToken, {
    title,
    description: 'Sand and oil a garden bench and two chairs. Oil and sandpaper provided.',
    address,
    payment: 7500,
    category: 'Home Projects',
    date: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
    duration: '3 hours',
    requirements: [],
    skills: ['Sanding'],
  }));
  const simulator = new URL(e2eTarget().runtimeConfig.stripe.simulatorUrl ?? '');
  const stripe = new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: simulator.hostname, port: Number(simulator.port), protocol: 'http', maxNetworkRetries: 0 });
  const intent = await stripe.paymentIntents.confirm(started.payment.paymentIntentId, { payment_method: card });
  if (intent.status === 'requires_action') await fetch(`${simulator.origin}/authenticate/${intent.id}/complete`, { method: 'POST' });
  return callApi<JobSummary>('POST', '/payments/confirm', posterToken, { paymentIntentId: started.payment.paymentIntentId });
}

/** A paid job of Paula's that Wendy applied for, was accepted for and marked completed (through the API). */
export async function completedByWendy(title: string): Promise<JobSummary> {
  const [paula, wendy] = await Promise.all([idTokenOf('paula@oddjobs.test'), idTokenOf('wendy@oddjobs.test')]);
  const job = await postPaidJob(paula, title);
  const { workerId } = await callApi<Application>('POST', `/jobs/${job.id}/applications`, wendy, {});
  await callApi('POST', `/jobs/${job.id}/applications/${workerId}/accept`, paula, {});
  return callApi<JobSummary>('POST', `/jobs/${job.id}/complete`, wendy, {});
}

/** The official SDK on the stack's Stripe simulator, as a test's "Stripe dashboard". */
export function stripeDashboard(): Stripe {
  const simulator = new URL(e2eTarget().runtimeConfig.stripe.simulatorUrl ?? '');
  return new Stripe(LOCAL_STRIPE_KEYS.secretKey, { host: simulator.hostname, port: Number(simulator.port), protocol: 'http', maxNetworkRetries: 0 });
}

/** The verification code mailed to the address, once it is in the local mailbox (it may land a moment after the sign-up's answer). */
async function codeMailedTo(email: string): Promise<string> {
  for (const started = Date.now(); Date.now() - started < 15_000; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const code = await mailedCode(e2eTarget().mailboxUrl, email);
    if (code) return code;
  }
  throw new Error(`No verification code was mailed to ${email} within 15 s`);
}

/**
 * A user of the test's own, signed up and verified (the code from the stack's mailbox) with
 * a connected payment account: for a test that changes what Stripe lets their account do, or
 * their profile, which must not touch the demo users other files share.
 */
export async function newReadyUser(name: string, role: 'worker' | 'poster' = 'worker'): Promise<{ userId: string; email: string; password: string; token: string }> {
  const config = e2eTarget().runtimeConfig;
  const cognito = cognitoClient(config.userPoolEndpoint ?? '');
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct-horse-42';
  const { UserSub } = await cognito.send(
    new SignUpCommand({ ClientId: config.userPoolClientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }, { Name: 'name', Value: name }], ClientMetadata: { [SIGN_UP_ROLE_METADATA]: role } }),
  );
  await cognito.send(new ConfirmSignUpCommand({ ClientId: config.userPoolClientId, Username: email, ConfirmationCode: await codeMailedTo(email) }));
  const token = await idTokenOf(email, password);
  // Onboarding returns to the page's origin, which the browser sends.
  const link = await fetch(`${config.apiUrl}/payments/account`, { method: 'POST', headers: { authorization: `Bearer ${token}`, origin: new URL(e2eTarget().webUrl).origin } });
  const { accountLinkUrl } = (await link.json()) as { accountLinkUrl: string };
  await fetch(`${accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
  await callApi('POST', '/payments/account/status', token, {});
  return { userId: UserSub!, email, password, token };
}
