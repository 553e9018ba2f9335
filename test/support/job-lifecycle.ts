import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { JobSummary } from '../../shared/api.js';
import type { JobStatus } from '../../shared/job-process.js';
import type { Role } from '../../shared/roles.js';
import { jobIndexKeys } from '../../functions/jobs/jobs.js';
import { keys } from '../../functions/table.js';
import type { LocalStack } from '../../infra/local/stack.js';
import { createUser, tableClient, type TestUser } from './local-stack.js';
import { connectPaymentAccount, postPaidJob } from './payments.js';

export const jobForm = {
  title: 'Paint a garden shed',
  description: 'One coat, paint provided.',
  address: { street: '12 Oak St', city: 'Austin', state: 'TX' },
  payment: 6000,
  category: 'Home Projects',
  date: new Date().toISOString().slice(0, 10),
  duration: '3 hours',
};

/** Users ready to post or apply: signed up, verified, signed in, payment account connected (on the Stripe simulator). */
export async function createReadyUsers(stack: LocalStack, role: Role, count: number, batchSize = 10): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let start = 0; start < count; start += batchSize) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(batchSize, count - start) }, (_, i) => createUser(stack, { role, name: `${role} ${start + i + 1}` })),
    );
    await Promise.all(batch.map((user) => connectPaymentAccount(stack, user)));
    users.push(...batch);
  }
  return users;
}

export async function createReadyUser(stack: LocalStack, role: Role): Promise<TestUser> {
  const [user] = await createReadyUsers(stack, role, 1);
  return user!;
}

/**
 * Sets a job's status (and worker) in the table with the index keys that go with it: a
 * stand-in for steps these tests are not about (the release that makes a job paid).
 */
export async function setJobStatus(stack: LocalStack, job: JobSummary, status: JobStatus, workerId = job.workerId): Promise<JobSummary> {
  const moved: JobSummary = { ...job, status, ...(workerId ? { workerId } : {}) };
  const index = jobIndexKeys(moved);
  const fields: Record<string, unknown> = { status, ...(workerId ? { workerId } : {}), ...index };
  const names = Object.fromEntries(Object.keys(fields).map((field, i) => [`#f${i}`, field]));
  const values = Object.fromEntries(Object.values(fields).map((value, i) => [`:v${i}`, value]));
  await tableClient(stack).send(
    new UpdateCommand({
      TableName: stack.tableName,
      Key: keys.job(job.id),
      UpdateExpression: `SET ${Object.keys(fields).map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
  return moved;
}

/** A job posted and paid for through the API, as the browser does it: open. */
export function postOpenJob(stack: LocalStack, poster: TestUser, overrides: Partial<typeof jobForm & { verifiedWorkersOnly: boolean }> = {}): Promise<JobSummary> {
  return postPaidJob(stack, poster, { ...jobForm, ...overrides });
}
