/**
 * `npm run smoke -- --config <url of config.json>`: the post-deploy check. Through the same
 * public interfaces a browser uses (Cognito as the SPA signs in, the HTTP API, Stripe with
 * the publishable key, S3 by presigned POST, the WebSocket API), two users post and pay for a
 * job with a photo and Stripe's test card, apply, accept, chat, complete, dispute and release;
 * the worker saves an avatar, a location and alert preferences; the deploy's admin signs in
 * (running Cognito's new-password step on the first sign-in), finds the job among the admin's
 * jobs, approves the worker's report of it and resolves the dispute; the job is deleted at the end.
 *
 * The two users:
 * - local stack (`mode: local` in config.json): signed up fresh, verified with the code from
 *   the local mailbox, payment accounts connected on the Stripe simulator's onboarding page;
 * - AWS: an operator-provided pair, SMOKE_POSTER and SMOKE_WORKER as `email:password`,
 *   confirmed and with payment accounts connected in Stripe test mode once (docs/deploy.md).
 *   No mailbox can be read there and Stripe's onboarding needs a browser, so the script never
 *   signs up in AWS, and needs no AWS credentials.
 *
 * The admin, in both modes, is the deploy's: SMOKE_ADMIN as `email:password` with the current
 * password, or the temporary one from the invitation together with SMOKE_ADMIN_NEW_PASSWORD,
 * which the new-password step then sets.
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { confirmSignIn, confirmSignUp, fetchAuthSession, signIn, signOut, signUp } from 'aws-amplify/auth';
import WebSocket from 'ws';
import type { ImageUpload } from '../../functions/lib/images.js';
import { mailedCode } from '../../infra/local/mailbox.js';
import type { ChatMessage, ConversationView, Dispute, JobPaymentStart, JobSummary, LiveMessage, OwnProfile, Page } from '../../shared/api.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import type { PaymentAccount } from '../../shared/payments.js';
import { SIGN_UP_ROLE_METADATA, type Role } from '../../shared/roles.js';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
import { configureAmplify } from '../../web/src/lib/auth/amplify.js';

/** Stripe's test card that succeeds, as a test PaymentMethod. */
const TEST_CARD = 'pm_card_visa';
const STRIPE_API = 'https://api.stripe.com';
/** A 1×1 PNG: the job's photo and the worker's avatar. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export interface SmokeUser {
  email: string;
  password: string;
  userId: string;
  idToken: string;
}

export interface SmokeOptions {
  configUrl: string;
  /** AWS only: the operator-provided users. */
  poster?: { email: string; password: string };
  worker?: { email: string; password: string };
  /**
   * The deploy's admin: `password` is the current one, or the invitation's temporary one with
   * `newPassword`, which Cognito's new-password step on the first sign-in sets.
   */
  admin?: AdminCredentials;
  /** Where the Stripe onboarding would return to (the site's origin). */
  siteOrigin?: string;
  log?: (line: string) => void;
}

export interface AdminCredentials {
  email: string;
  password: string;
  newPassword?: string;
}

class SmokeFailure extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new SmokeFailure(message);
}

/** Runs the whole check; resolves with the id of the job it posted (and deleted) and whether the admin's new-password step ran. */
export async function runSmoke(options: SmokeOptions): Promise<{ jobId: string; adminNewPasswordSet: boolean }> {
  const log = options.log ?? ((line: string) => console.log(line));
  const configResponse = await fetch(options.configUrl, { cache: 'no-store' });
  check(configResponse.ok, `GET ${options.configUrl} answered ${configResponse.status}`);
  const config = runtimeConfigSchema.parse(await configResponse.json());
  const adminCredentials = options.admin;
  check(adminCredentials, "set SMOKE_ADMIN=email:password: the deploy's admin, with the current password or the invitation's temporary one (then also SMOKE_ADMIN_NEW_PASSWORD)");
  const origin = options.siteOrigin ?? new URL(options.configUrl).origin;
  configureAmplify(config);

  const call = async <T>(method: string, path: string, user?: SmokeUser, body?: unknown, expected = [200, 201, 204]): Promise<T> => {
    const response = await fetch(`${config.apiUrl}${path}`, {
      method,
      headers: {
        origin,
        ...(user ? { authorization: `Bearer ${user.idToken}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    check(expected.includes(response.status), `${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  const step = async <T>(name: string | ((result: T) => string), run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    log(`ok  ${typeof name === 'string' ? name : name(result)} (${(performance.now() - started).toFixed(0)} ms)`);
    return result;
  };

  /** Uploads the PNG as the browser does: a presigned POST from the API, then S3 checks its policy. */
  const uploadImage = async (user: SmokeUser, purpose: 'job' | 'avatar'): Promise<string> => {
    const presigned = await call<ImageUpload>('POST', '/uploads/images', user, { purpose, fileName: 'smoke.png', contentType: 'image/png', size: PNG.length });
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'smoke.png');
    const stored = await fetch(presigned.url, { method: 'POST', body: form });
    check(stored.status < 300, `S3 refused the presigned upload: ${stored.status} ${await stored.text()}`);
    return presigned.key;
  };

  const poster = await step('poster signed in', () => smokeUser(config, 'poster', options.poster));
  const worker = await step('worker signed in', () => smokeUser(config, 'worker', options.worker));
  const { user: admin, newPasswordSet } = await step(
    ({ newPasswordSet }) => (newPasswordSet ? 'admin signed in, replacing the temporary password' : 'admin signed in'),
    () => signedIn(config, adminCredentials, adminCredentials.newPassword),
  );

  await step('worker saved an avatar, a location and alert preferences', async () => {
    const profileImage = await uploadImage(worker, 'avatar');
    const withAvatar = await call<OwnProfile>('PATCH', '/me', worker, { profileImage });
    check(withAvatar.profileImage?.endsWith(profileImage), 'the profile does not show the uploaded avatar');
    const located = await call<OwnProfile>('PUT', '/me/location', worker, { zip: '78701', timeZone: 'America/Chicago' });
    check(located.location === '78701' && located.latitude !== null, `the saved location is ${located.location}`);
    const alerted = await call<OwnProfile>('PUT', '/me/notification-preferences', worker, { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: true });
    check(alerted.notificationPreferences.enabled && alerted.profileImage === withAvatar.profileImage, 'the alert preferences were not saved with the avatar kept');
  });

  for (const user of [poster, worker]) {
    await step(`${user === poster ? 'poster' : 'worker'} payment account connected`, async () => {
      // 400 while no account is connected yet.
      const accountStatus = async () => (await call<Partial<PaymentAccount>>('POST', '/payments/account/status', user, undefined, [200, 400])).status;
      if ((await accountStatus()) === 'complete') return;
      check(config.mode === 'local', `${user.email} has no connected payment account: connect it once in the app (docs/deploy.md)`);
      const { accountLinkUrl } = await call<{ accountLinkUrl: string }>('POST', '/payments/account', user);
      // The simulator's onboarding page, as the user would submit it.
      const completed = await fetch(`${accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
      check(completed.status === 303, `onboarding answered ${completed.status}`);
      await poll(async () => (await accountStatus()) === 'complete', 'payment account complete');
    });
  }

  let job: JobSummary | undefined;
  try {
    job = await step('job posted with a photo uploaded to S3 and paid with the test card', async () => {
      const photo = await uploadImage(poster, 'job');
      const started = await call<JobPaymentStart>('POST', '/jobs', poster, {
        title: `Smoke test ${new Date().toISOString()}`,
        description: 'Posted by the post-deploy smoke test; deleted when it finishes.',
        address: { street: '1 Test St', city: 'Austin', state: 'TX' },
        payment: 1000,
        category: 'Other',
        date: new Date().toISOString().slice(0, 10),
        duration: '1 hour',
        images: [photo],
      });
      await confirmCardPayment(config, started.payment.paymentIntentId, started.payment.clientSecret);
      return call<JobSummary>('POST', '/payments/confirm', poster, { paymentIntentId: started.payment.paymentIntentId });
    });
    const jobId = job.id;
    check(job.status === 'open', `the paid job is ${job.status}, not open`);
    const [photoUrl] = job.images;
    check(job.images.length === 1 && photoUrl, `the job has ${job.images.length} photos, not 1`);
    const photo = await fetch(photoUrl);
    check(photo.ok, `the job's photo answered ${photo.status}`);

    await step('worker reported the job', () => call('POST', `/jobs/${jobId}/flags`, worker, { flagType: 'other', reason: 'Smoke test report.' }));
    await step("admin found the job with its photo among the admin's jobs and approved the report", async () => {
      const listed = await poll(async () => (await call<Page<JobSummary>>('GET', '/admin/jobs?status=open', admin)).items.find((item) => item.id === jobId), "the job in the admin's open jobs");
      check(listed.images.length === 1, `the admin's job list shows ${listed.images.length} photos, not 1`);
      await call('POST', `/admin/flags/${jobId}/review`, admin, { decision: 'approved' });
    });
    await step('worker applied', () => call('POST', `/jobs/${jobId}/applications`, worker, {}));
    await step('poster accepted the worker', () => call('POST', `/jobs/${jobId}/applications/${worker.userId}/accept`, poster));

    await step('worker and poster chatted, the poster live over the WebSocket API', async () => {
      const conversation = await call<ConversationView>('POST', '/conversations', worker, { jobId });
      const live = await openLiveSocket(config, poster);
      try {
        const pushed = live.next((message) => message.type === 'chat.message' && message.conversationId === conversation.id);
        const sent = await call<{ message: ChatMessage }>('POST', `/conversations/${conversation.id}/messages`, worker, { id: randomUUID(), content: 'Smoke test: on my way.' });
        const received = await pushed;
        check(received.type === 'chat.message' && received.message.id === sent.message.id, 'the poster was pushed another message than the one sent');
      } finally {
        live.close();
      }
      const reply = await call<{ message: ChatMessage }>('POST', `/conversations/${conversation.id}/messages`, poster, { id: randomUUID(), content: 'Smoke test: see you soon.' });
      const seen = await call<Page<ChatMessage>>('GET', `/conversations/${conversation.id}/messages`, worker);
      check(seen.items.some((message) => message.id === reply.message.id), 'the worker does not see the poster\'s reply');
    });

    await step('worker marked the job complete', () => call('POST', `/jobs/${jobId}/complete`, worker));
    await step('worker filed a dispute and the admin resolved it', async () => {
      const filed = await call<Dispute>('POST', `/jobs/${jobId}/dispute`, worker, { type: 'general', description: 'Filed by the post-deploy smoke test.' });
      const resolved = await call<Dispute>('POST', `/admin/disputes/${filed.id}/resolve`, admin, { resolution: 'Resolved by the post-deploy smoke test.' });
      check(resolved.status === 'resolved', `the resolved dispute is ${resolved.status}`);
    });
    const released = await step('poster released the payment', () => call<JobSummary>('POST', `/jobs/${jobId}/release-payment`, poster));
    check(released.status === 'paid', `the released job is ${released.status}, not paid`);
  } finally {
    if (job) {
      const jobId = job.id;
      await step('job deleted', () => call('DELETE', `/jobs/${jobId}`, poster));
    }
  }
  log('smoke test passed');
  return { jobId: job.id, adminNewPasswordSet: newPasswordSet };
}

/** Signs a user in as the SPA does (SRP in AWS); locally signs up and verifies one first. */
async function smokeUser(config: RuntimeConfig, role: Role, given?: { email: string; password: string }): Promise<SmokeUser> {
  let credentials = given;
  if (!credentials) {
    check(config.mode === 'local', `set SMOKE_${role.toUpperCase()}=email:password: against AWS the smoke test uses an operator-provided ${role}`);
    credentials = { email: `smoke-${role}-${randomUUID().slice(0, 8)}@example.com`, password: `Smoke-${randomUUID()}` };
    await signUp({
      username: credentials.email,
      password: credentials.password,
      options: { userAttributes: { email: credentials.email, name: `Smoke ${role}` }, clientMetadata: { [SIGN_UP_ROLE_METADATA]: role } },
    });
    const mailbox = config.mailboxUrl;
    check(mailbox, 'the local config.json names no mailbox');
    const code = await poll(() => mailedCode(mailbox, credentials!.email), 'verification code mailed');
    await confirmSignUp({ username: credentials.email, confirmationCode: code });
  }
  return (await signedIn(config, credentials)).user;
}

/**
 * Signs a user in as the SPA does; on a temporary password (the admin's invitation) answers
 * Cognito's new-password step with `newPassword`, as the sign-in screen does.
 */
async function signedIn(config: RuntimeConfig, credentials: { email: string; password: string }, newPassword?: string) {
  await signOut();
  let result = await signIn({ username: credentials.email, password: credentials.password, options: { authFlowType: config.authFlowType } });
  const newPasswordRequired = result.nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED';
  if (newPasswordRequired) {
    check(newPassword, `${credentials.email} signs in with a temporary password: set SMOKE_ADMIN_NEW_PASSWORD to the new password the sign-in should choose`);
    result = await confirmSignIn({ challengeResponse: newPassword });
  }
  check(result.isSignedIn, `${credentials.email} could not sign in: next step ${result.nextStep.signInStep}`);
  const { tokens } = await fetchAuthSession();
  check(tokens?.idToken, `${credentials.email} has no ID token`);
  const user: SmokeUser = { ...credentials, userId: String(tokens.idToken.payload.sub), idToken: tokens.idToken.toString() };
  return { user, newPasswordSet: newPasswordRequired };
}

/** Confirms the PaymentIntent with the publishable key and client secret, as Stripe.js does. */
async function confirmCardPayment(config: RuntimeConfig, paymentIntentId: string, clientSecret: string): Promise<void> {
  const stripeApi = config.stripe.simulatorUrl ?? STRIPE_API;
  const response = await fetch(`${stripeApi}/v1/payment_intents/${paymentIntentId}/confirm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.stripe.publishableKey}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_secret: clientSecret, payment_method: TEST_CARD }),
  });
  const intent = (await response.json()) as { status?: string; error?: { message: string } };
  check(response.ok && intent.status === 'succeeded', `Stripe refused the test card: ${intent.error?.message ?? intent.status}`);
}

/**
 * The user's live connection, as the web app opens it (the ID token in the query string, which
 * the WebSocket API's authorizer checks): `next` resolves with the first push that matches.
 */
async function openLiveSocket(config: RuntimeConfig, user: SmokeUser) {
  const socket = new WebSocket(`${config.webSocketUrl}?token=${encodeURIComponent(user.idToken)}`);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) => reject(new SmokeFailure(`the WebSocket API refused the connection: ${error.message}`)));
  });
  return {
    next: (matches: (message: LiveMessage) => boolean, timeoutMs = 15_000) =>
      new Promise<LiveMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new SmokeFailure('no live push arrived within 15 s')), timeoutMs);
        socket.on('message', (data) => {
          const message = JSON.parse(String(data)) as LiveMessage;
          if (!matches(message)) return;
          clearTimeout(timer);
          resolve(message);
        });
      }),
    close: () => socket.close(),
  };
}

/** Retries until `probe` gives a value (events and webhooks arrive asynchronously). */
async function poll<T>(probe: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    check(Date.now() < deadline, `timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const credentialsFrom = (variable: string) => {
  const value = process.env[variable];
  if (!value) return undefined;
  const separator = value.indexOf(':');
  return { email: value.slice(0, separator), password: value.slice(separator + 1) };
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { config: { type: 'string' }, origin: { type: 'string' } } });
  if (!values.config) {
    console.error(
      'usage: SMOKE_ADMIN=email:password [SMOKE_ADMIN_NEW_PASSWORD=...] [SMOKE_POSTER=email:password SMOKE_WORKER=email:password] npm run smoke -- --config https://<site>/config.json [--origin https://<site>]',
    );
    process.exit(2);
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const admin = credentialsFrom('SMOKE_ADMIN');
  runSmoke({
    configUrl: values.config,
    siteOrigin: values.origin,
    poster: credentialsFrom('SMOKE_POSTER'),
    worker: credentialsFrom('SMOKE_WORKER'),
    admin: admin && { ...admin, newPassword: process.env.SMOKE_ADMIN_NEW_PASSWORD || undefined },
  }).catch(
    (error: unknown) => {
      console.error(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
