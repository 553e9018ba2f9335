/**
 * The load's users, made before the run through the public interfaces of a local-mode stack
 * (its config.json): signed up through the user pool, verified with the code from the local
 * mailbox, signed in, payment account connected on the Stripe simulator's onboarding page.
 * Chat pairs also get a paid job and the worker's conversation about it.
 */
import { randomUUID } from 'node:crypto';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import type { ConversationView, JobPaymentStart } from '../../shared/api.js';
import { SIGN_UP_ROLE_METADATA, type Role } from '../../shared/roles.js';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { mailedCode } from '../../infra/local/mailbox.js';
import type { ChatSeat, LoadUser } from './protocol.js';
import { jobRequest, testCardConfirmation } from './requests.js';

/** The page origin the browser sends; the onboarding link returns to it. */
const APP_ORIGIN = 'http://127.0.0.1:5173';
const BATCH = 12;

export interface LoadUsers {
  posters: LoadUser[];
  workers: LoadUser[];
  /** Both parties of each pair, the poster first. */
  chatSeats: ChatSeat[];
}

interface SignedInUser extends LoadUser {
  idToken: string;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function inBatches<T>(count: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += BATCH) made.push(...(await Promise.all(Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => make(start + i)))));
  return made;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 120; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await wait(250);
  }
  throw new Error(`setup timed out waiting for ${what}`);
}

export function localSetup(config: RuntimeConfig) {
  const { userPoolEndpoint, mailboxUrl, stripe } = config;
  if (config.mode !== 'local' || !userPoolEndpoint || !mailboxUrl || !stripe.simulatorUrl) {
    throw new Error('setting users up needs a local-mode stack (config.json with a user pool endpoint, a mailbox and the Stripe simulator)');
  }
  const cognito = cognitoClient(userPoolEndpoint);
  const mailbox = mailboxUrl;

  /**
   * One API call of the setup. A 503 is the gateway's 30 s timeout, which a function's first
   * start (its bundling) can reach on a loaded machine: asked again, up to twice. Every call here
   * may be repeated (a repeated POST /jobs leaves an unpaid draft behind, which expires).
   */
  async function call<T>(user: SignedInUser, method: string, path: string, body?: unknown): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${user.idToken}`, origin: APP_ORIGIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status === 503 && attempt < 3) {
        console.log(`setup: ${method} ${path} answered 503, asking again`);
        continue;
      }
      if (!response.ok) throw new Error(`setup: ${method} ${path} answered ${response.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }

  async function createUser(role: Role, label: string): Promise<SignedInUser> {
    const email = `load-${label}-${randomUUID().slice(0, 8)}@example.com`;
    const password = `Load-${randomUUID()}`;
    const { UserSub } = await cognito.send(
      new SignUpCommand({
        ClientId: config.userPoolClientId,
        Username: email,
        Password: password,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'name', Value: `Load ${label}` },
        ],
        ClientMetadata: { [SIGN_UP_ROLE_METADATA]: role },
      }),
    );
    const code = await until(() => mailedCode(mailbox, email), `the verification code for ${email}`);
    await cognito.send(new ConfirmSignUpCommand({ ClientId: config.userPoolClientId, Username: email, ConfirmationCode: code }));
    const signedIn = await cognito.send(
      new InitiateAuthCommand({ ClientId: config.userPoolClientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: password } }),
    );
    const user = { userId: UserSub!, email, password, idToken: signedIn.AuthenticationResult!.IdToken! };
    // Both roles need a connected account: posters to pay, workers to apply.
    const { accountLinkUrl } = await call<{ accountLinkUrl: string }>(user, 'POST', '/payments/account');
    const onboarded = await fetch(`${accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
    if (onboarded.status !== 303) throw new Error(`setup: onboarding answered ${onboarded.status}`);
    await until(async () => ((await call<{ status: string }>(user, 'POST', '/payments/account/status')).status === 'complete' ? true : undefined), `${email}'s payment account`);
    return user;
  }

  /** A paid job of the poster's, opened as the web app opens it (the card step with the publishable key). */
  async function postPaidJob(poster: SignedInUser): Promise<string> {
    const started = await call<JobPaymentStart>(poster, 'POST', '/jobs', jobRequest('Load test chat job', 'A job the load test chats about.'));
    const card = testCardConfirmation(stripe.simulatorUrl!, stripe.publishableKey, started.payment);
    const confirmed = await fetch(card.url, card.init);
    if (!confirmed.ok) throw new Error(`setup: the card step answered ${confirmed.status}`);
    await call(poster, 'POST', '/payments/confirm', { paymentIntentId: started.payment.paymentIntentId });
    return started.job.id;
  }

  const withoutToken = ({ userId, email, password }: SignedInUser): LoadUser => ({ userId, email, password });

  return async function createLoadUsers(counts: { posters: number; workers: number; chatPairs: number }): Promise<LoadUsers> {
    const posters = await inBatches(counts.posters, (i) => createUser('poster', `poster-${i}`));
    const workers = await inBatches(counts.workers, (i) => createUser('worker', `worker-${i}`));
    const pairs = await inBatches(counts.chatPairs, async (i) => {
      const poster = await createUser('poster', `chat-poster-${i}`);
      const worker = await createUser('worker', `chat-worker-${i}`);
      const jobId = await postPaidJob(poster);
      const conversation = await call<ConversationView>(worker, 'POST', '/conversations', { jobId });
      return [poster, worker].map((user) => ({ ...withoutToken(user), conversationId: conversation.id }));
    });
    return { posters: posters.map(withoutToken), workers: workers.map(withoutToken), chatSeats: pairs.flat() };
  };
}
