import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfirmSignUpCommand, InitiateAuthCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import ngeohash from 'ngeohash';
import { createJobSchema } from '../../shared/schemas/job.js';
import { cognitoClient } from './cognito.js';
import { DEMO_CONVERSATIONS, DEMO_JOBS, DEMO_PASSWORD, DEMO_USERS } from './demo-data.js';
import type { LocalStack } from './stack.js';

/**
 * Gives a demo user a complete payment account, as a person would: through the API's
 * onboarding link and the Stripe simulator's onboarding page.
 */
async function connectDemoPaymentAccount(stack: LocalStack, email: string): Promise<void> {
  const { AuthenticationResult } = await cognitoClient(stack.urls.cognito).send(
    new InitiateAuthCommand({
      ClientId: stack.userPool.clientId,
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
    }),
  );
  const headers = { authorization: `Bearer ${AuthenticationResult!.IdToken}`, origin: 'http://127.0.0.1:5173' };
  const link = (await (await fetch(`${stack.urls.api}/payments/account`, { method: 'POST', headers })).json()) as { accountLinkUrl: string };
  await fetch(`${link.accountLinkUrl}/complete`, { method: 'POST', redirect: 'manual' });
  await fetch(`${stack.urls.api}/payments/account/status`, { method: 'POST', headers });
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
          { Name: 'custom:role', Value: user.role },
        ],
      }),
    );
    const code = stack.mailbox.list(user.email)[0]?.code;
    await cognito.send(new ConfirmSignUpCommand({ ClientId: stack.userPool.clientId, Username: user.email, ConfirmationCode: code }));
    userIds.set(user.email, UserSub!);
    if (user.role !== 'admin') await connectDemoPaymentAccount(stack, user.email);
  }

  // Imported late: the domain modules create their SDK clients from the stack's environment.
  const { newJob, putNewJob } = await import('../../functions/domain/jobs.js');
  const { syncSearchTerms } = await import('../../functions/domain/job-search.js');
  const { GEOHASH_PRECISION } = await import('../../functions/events/geocode-job.js');
  const now = Date.now();
  const jobIds = new Map<string, string>();
  for (const [index, demo] of DEMO_JOBS.entries()) {
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
    });
    const createdAt = new Date(now - (DEMO_JOBS.length - index) * 47 * 60_000).toISOString();
    const job = newJob(request, userIds.get(demo.poster)!, createdAt);
    await putNewJob({
      ...job,
      latitude: demo.latitude,
      longitude: demo.longitude,
      geohash: ngeohash.encode(demo.latitude, demo.longitude, GEOHASH_PRECISION),
      geocodedAddress: job.fullAddress,
    });
    await syncSearchTerms(job.id);
    jobIds.set(demo.title, job.id);
  }

  // The chats go through the messaging domain itself: counters, notifications and all.
  const { startConversation, sendMessage, setWorkerBlocked } = await import('../../functions/domain/conversations.js');
  for (const demo of DEMO_CONVERSATIONS) {
    const workerId = userIds.get(demo.worker)!;
    const { conversation } = await startConversation(workerId, { jobId: jobIds.get(demo.jobTitle)! });
    for (const message of demo.messages) {
      await sendMessage(message.worker ? workerId : conversation.posterId, conversation.id, { id: randomUUID(), content: message.text });
    }
    if (demo.blocked) await setWorkerBlocked(conversation.posterId, conversation.id, true);
  }
  writeFileSync(marker, JSON.stringify({ seededAt: new Date().toISOString() }));
  return true;
}
