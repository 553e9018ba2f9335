import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import ngeohash from 'ngeohash';
import type { IdentityCheckStart } from '../../shared/api.js';
import { createJobSchema } from '../../shared/schemas/job.js';
import { seedAdminDemo } from './admin-demo.js';
import { seedOffersDemo } from './offers-demo.js';
import { cognitoClient } from './cognito.js';
import { answerVerificationPage } from './stripe-simulator/identity.js';
import { DeleteCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DEMO_CONVERSATIONS, DEMO_DISPUTE, DEMO_JOBS, DEMO_JOB_LOOP, DEMO_LOCATIONS, DEMO_NOTIFICATIONS, DEMO_PASSWORD, DEMO_SAVED_SEARCHES, DEMO_USERS, DEMO_VERIFIED_IDENTITIES, type DemoJob } from './demo-data.js';
import type { LocalStack } from './stack.js';
import { SIGN_UP_ROLE_METADATA } from '../../shared/roles.js';

/** A demo user's ID token, signed in as the app does. */
async function demoIdToken(stack: LocalStack, email: string): Promise<string> {
  const { AuthenticationResult } = await cognitoClient(stack.urls.cognito).send(
    new InitiateAuthCommand({
      ClientId: stack.userPool.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
  return AuthenticationResult!.IdToken!;
}

/**
 * Gives a demo user a complete payment account, as a person would: through the API's
 * onboarding link and the Stripe simulator's onboarding page.
 */
async function connectDemoPaymentAccount(stack: LocalStack, email: string): Promise<void> {
  const headers = { authorization: `Bearer ${await demoIdToken(stack, email)}`, origin: 'http://127.0.0.1:5173' };
  const link = (await (await fetch(`${stack.urls.api}/payments/account`, { method: 'POST', headers })).json()) as { accountLinkUrl: string };
  await fetch(`${link.accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
  await fetch(`${stack.urls.api}/payments/account/status`, { method: 'POST', headers });
}

/**
 * A demo worker verifies their identity as a person would (issue 47): the profile's Identity
 * card starts a check through the API, and Stripe's test page answers it; the result comes to
 * the profile by the webhook.
 */
async function verifyDemoIdentity(stack: LocalStack, email: string): Promise<void> {
  const headers = { authorization: `Bearer ${await demoIdToken(stack, email)}`, 'content-type': 'application/json' };
  const session = (await (await fetch(`${stack.urls.api}/me/identity-check`, { method: 'POST', headers, body: '{}' })).json()) as IdentityCheckStart;
  await answerVerificationPage(stack.urls.stripe, session, 'verified');
}

/**
 * Fills a new local stack with the demo accounts and jobs, once: accounts go through the real
 * sign-up and verification (so the triggers create their profiles) and get connected payment
 * accounts; the demo jobs (open, as if paid) go through the same
 * validation and domain code as POST /jobs, with their coordinates, and into the search index.
 */
export async function seedDemoDataOnce(stack: LocalStack, dataDir: string): Promise<boolean> {
  const marker = join(dataDir, 'seeded.json');
  if (existsSync(marker)) return false;

  const cognito = cognitoClient(stack.urls.cognito);
  const userIds = new Map<string, string>();
  for (const user of DEMO_USERS) {
    const { UserSub } = await cognito.send(
      new SignUpCommand({
        ClientId: stack.userPool.clientId,
        Username: user.email,
        Password: DEMO_PASSWORD,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'name', Value: user.name },
        ],
        ClientMetadata: { [SIGN_UP_ROLE_METADATA]: user.role },
      }),
    );
    const code = stack.mailbox.list(user.email)[0]?.code;
    await cognito.send(new ConfirmSignUpCommand({ ClientId: stack.userPool.clientId, Username: user.email, ConfirmationCode: code }));
    userIds.set(user.email, UserSub!);
    if (user.role !== 'admin') await connectDemoPaymentAccount(stack, user.email);
  }

  // Imported late: the domain modules create their SDK clients from the stack's environment.
  const { newJob, putNewJob } = await import('../../functions/jobs/jobs.js');
  const { syncSearchDocument } = await import('../../functions/search/search-documents.js');
  const { GEOHASH_PRECISION } = await import('../../functions/jobs/job-geocoding.js');
  const { countJobInMarkets } = await import('../../functions/admin/market-stats.js');
  const now = Date.now();
  const jobIds: string[] = [];
  const putDemoJob = async (demo: DemoJob, createdAt: string) => {
    const request = createJobSchema.parse({
      title: demo.title,
      description: demo.description,
      address: { street: demo.street, city: demo.city, state: demo.state },
      payment: demo.paymentCents,
      category: demo.category,
      date: new Date(now + demo.inDays * 86_400_000).toISOString().slice(0, 10),
      duration: demo.duration,
      requirements: demo.requirements,
      skills: demo.skills,
      verifiedWorkersOnly: demo.verifiedWorkersOnly ?? false,
    });
    const job = newJob(request, userIds.get(demo.poster)!, createdAt);
    await putNewJob({
      ...job,
      latitude: demo.latitude,
      longitude: demo.longitude,
      geohash: ngeohash.encode(demo.latitude, demo.longitude, GEOHASH_PRECISION),
      geocodedAddress: job.fullAddress,
    });
    await syncSearchDocument(job.id);
    await countJobInMarkets(job.id);
    return job;
  };
  const jobIdsByTitle = new Map<string, string>();
  for (const [index, demo] of DEMO_JOBS.entries()) {
    const job = await putDemoJob(demo, new Date(now - (DEMO_JOBS.length - index) * 47 * 60_000).toISOString());
    jobIds.push(job.id);
    jobIdsByTitle.set(demo.title, job.id);
  }

  // The chats go through the messaging domain itself: counters, notifications and all.
  const { startConversation, sendMessage, setWorkerBlocked } = await import('../../functions/chat/conversations.js');
  for (const demo of DEMO_CONVERSATIONS) {
    const workerId = userIds.get(demo.worker)!;
    const { conversation } = await startConversation(workerId, { jobId: jobIdsByTitle.get(demo.jobTitle)! });
    for (const message of demo.messages) {
      await sendMessage(message.worker ? workerId : conversation.posterId, conversation.id, { id: randomUUID(), content: message.text });
    }
    if (demo.blocked) await setWorkerBlocked(conversation.posterId, conversation.id, true);
  }
  await seedDemoNotifications(userIds, jobIds);
  await seedDemoDispute(await putDemoJob(DEMO_DISPUTE.job, new Date(now - 26 * 3_600_000).toISOString()), userIds);

  // Further along the loop (not open, so not in the grids): assigned two days ago, before any
  // 'accepted in the last 24 hours' congratulations.
  const { submitReview } = await import('../../functions/reviews/reviews.js');
  for (const [index, demo] of DEMO_JOB_LOOP.entries()) {
    const request = createJobSchema.parse({
      title: demo.job.title,
      description: demo.job.description,
      address: { street: demo.job.street, city: demo.job.city, state: demo.job.state },
      payment: demo.job.paymentCents,
      category: demo.job.category,
      date: new Date(now + demo.job.inDays * 86_400_000).toISOString().slice(0, 10),
      duration: demo.job.duration,
    });
    const createdAt = new Date(now - (5 - index) * 86_400_000).toISOString();
    const job = newJob(request, userIds.get(demo.job.poster)!, createdAt, demo.status);
    const workerId = userIds.get(demo.worker)!;
    const assignedAt = new Date(now - 2 * 86_400_000).toISOString();
    await putNewJob({ ...job, workerId, assignedAt, ...(demo.declineReason ? { declineReason: demo.declineReason } : {}) });
    await countJobInMarkets(job.id);
    if (demo.reviews) {
      await submitReview(job.id, job.posterId, demo.reviews.byPoster);
      await submitReview(job.id, workerId, demo.reviews.byWorker);
    }
  }
  await seedAdminDemo(stack, (email) => demoIdToken(stack, email), jobIds.at(-1)!);
  await seedOffersDemo(stack, (email) => demoIdToken(stack, email));
  for (const email of DEMO_VERIFIED_IDENTITIES) await verifyDemoIdentity(stack, email);
  await forgetRateCounters();
  writeFileSync(marker, JSON.stringify({ seededAt: new Date().toISOString() }));
  return true;
}

/**
 * The demo's own requests leave no budget spent: the admin demo posts Paula's paid jobs through
 * the API, which counted them against her 3 payments a minute (shared/limits.ts), so a newcomer
 * signing in as Paula in the first minute was told "Too many payment attempts" on their first post.
 * A Scan, once, over the fresh demo table (not a request path).
 */
async function forgetRateCounters(): Promise<void> {
  const { db, tableName } = await import('../../functions/lib/db.js');
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: tableName(), FilterExpression: 'begins_with(pk, :rate)', ExpressionAttributeValues: { ':rate': 'RATE#' }, ProjectionExpression: 'pk, sk', ExclusiveStartKey }),
    );
    for (const key of page.Items ?? []) await db.send(new DeleteCommand({ TableName: tableName(), Key: key }));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

/**
 * The demo dispute, through the domain code the API runs: Wendy applies and is accepted, Paula
 * files, the three write in the thread. The resolution templates are seeded as on first read.
 */
async function seedDemoDispute(job: { id: string }, userIds: Map<string, string>): Promise<void> {
  const { applyToJob, acceptApplication } = await import('../../functions/applications/applications.js');
  const { getProfile } = await import('../../functions/people/profiles.js');
  const { fileDispute, postDisputeMessage } = await import('../../functions/disputes/disputes.js');
  const { listResolutionTemplates } = await import('../../functions/disputes/dispute-templates.js');
  const id = (email: string) => userIds.get(email)!;
  const posterId = id(DEMO_DISPUTE.job.poster);
  const workerId = id(DEMO_DISPUTE.worker);
  await applyToJob(job.id, (await getProfile(workerId))!, { message: null, availability: null });
  await acceptApplication(job.id, posterId, workerId);
  const { dispute } = await fileDispute(job.id, id(DEMO_DISPUTE.reporter), { type: DEMO_DISPUTE.type, description: DEMO_DISPUTE.description });
  for (const { from, message } of DEMO_DISPUTE.thread) {
    await postDisputeMessage(dispute.id, { userId: id(from), isAdmin: DEMO_USERS.some((user) => user.email === from && user.role === 'admin') }, message);
  }
  await listResolutionTemplates();
}

/** Demo workers' locations, alert settings and saved searches (through the same domain code as the API), and demo notifications. */
async function seedDemoNotifications(userIds: Map<string, string>, jobIds: string[]): Promise<void> {
  const { saveLocation, savePreferences } = await import('../../functions/location/worker-locations.js');
  const geocoder = (await import('../../functions/lib/geocoder.js')).createGeocoder();
  const { notificationItem } = await import('../../functions/notifications/notifications.js');
  const { db, tableName } = await import('../../functions/lib/db.js');
  const { DEFAULT_NOTIFICATION_PREFERENCES } = await import('../../shared/notifications.js');
  for (const demo of DEMO_LOCATIONS) {
    const userId = userIds.get(demo.email)!;
    await saveLocation(userId, { point: demo, market: await geocoder.market(demo) }, demo.timeZone);
    await savePreferences(userId, { ...DEFAULT_NOTIFICATION_PREFERENCES, radiusMiles: demo.radiusMiles });
  }
  const { saveSearch } = await import('../../functions/search/saved-searches.js');
  for (const demo of DEMO_SAVED_SEARCHES) await saveSearch(userIds.get(demo.email)!, demo);
  for (const demo of DEMO_NOTIFICATIONS) {
    const createdAt = new Date(Date.now() - demo.minutesAgo * 60_000).toISOString();
    const item = notificationItem({ userId: userIds.get(demo.to)!, jobId: jobIds[demo.job]!, type: demo.type, title: demo.title, message: demo.message, createdAt });
    // A read notification has left the unread index.
    const { gsi2pk: _unread, gsi2sk: _unreadOrder, ...readItem } = item;
    await db.send(new PutCommand({ TableName: tableName(), Item: demo.read ? { ...readItem, read: true } : item }));
  }
}
