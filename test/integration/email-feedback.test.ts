import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdminUserDetail } from '../../shared/admin.js';
import type { AppNotification } from '../../shared/api.js';
import { keys } from '../../functions/table.js';
import { LOCAL_MAIL_FROM } from '../../infra/local/stack.js';
import { createReadyUser, postOpenJob } from '../support/job-lifecycle.js';
import { api, createUser, tableClient, useLocalStack, type TestUser } from '../support/local-stack.js';
import { connectPaymentAccount, settle } from '../support/payments.js';

describe('email bounces and complaints (issue 25)', { timeout: 120_000 }, () => {
  const stack = useLocalStack();
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(stack(), { role: 'admin' });
  });
  const mailerEmailsTo = (email: string) => stack().mailbox.list(email).filter((mail) => mail.from === LOCAL_MAIL_FROM);

  /** A worker whose address is SES's mailbox simulator's (`bounce` or `complaint`, labelled to be unique). */
  async function simulatorWorker(kind: 'bounce' | 'complaint'): Promise<TestUser> {
    const worker = await createUser(stack(), { role: 'worker', email: `${kind}+${randomUUID().slice(0, 8)}@simulator.amazonses.com` });
    await connectPaymentAccount(stack(), worker);
    return worker;
  }

  /** The poster accepts or rejects the worker's application: each sends the worker an email-by-default notification. */
  async function decide(poster: TestUser, worker: TestUser, decision: 'accept' | 'reject') {
    const job = await postOpenJob(stack(), poster);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications`, { token: worker.idToken, body: {} })).status).toBe(201);
    expect((await api(stack(), 'POST', `/jobs/${job.id}/applications/${worker.userId}/${decision}`, { token: poster.idToken })).status).toBe(200);
    await settle(stack());
  }

  const emailStopped = async (user: TestUser) =>
    (await api<AdminUserDetail>(stack(), 'GET', `/admin/users/${user.userId}`, { token: admin.idToken })).body.user.emailStopped;

  it('stops email to an address that bounced, and shows it on the admin user page', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), simulatorWorker('bounce')]);
    expect(await emailStopped(worker)).toBeNull();
    await decide(poster, worker, 'reject');

    // The bounce came back through the configuration set's topic and is stored against the address.
    const suppression = await tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.emailSuppression(worker.email) }));
    expect(suppression.Item).toMatchObject({ reason: 'bounced' });
    expect(await emailStopped(worker)).toEqual({ reason: 'bounced', at: suppression.Item!.at });

    // The next notification is in the app but never handed to SES (no delivery claimed), and not retried.
    await decide(poster, worker, 'accept');
    const { body } = await api<{ items: AppNotification[] }>(stack(), 'GET', '/me/notifications', { token: worker.idToken });
    const byType = new Map(body.items.map((notification) => [notification.type, notification]));
    const delivery = (notification: AppNotification | undefined) =>
      tableClient(stack()).send(new GetCommand({ TableName: stack().tableName, Key: keys.notificationDelivery(notification!.id, 'email') }));
    expect((await delivery(byType.get('application_rejected'))).Item).toBeDefined();
    expect((await delivery(byType.get('application_accepted'))).Item).toBeUndefined();
    expect(mailerEmailsTo(worker.email)).toEqual([]);
  });

  it('stops email after a complaint, the complained-about email having arrived', async () => {
    const [poster, worker] = await Promise.all([createReadyUser(stack(), 'poster'), simulatorWorker('complaint')]);
    await decide(poster, worker, 'reject');
    expect(mailerEmailsTo(worker.email)).toHaveLength(1);
    expect(await emailStopped(worker)).toMatchObject({ reason: 'complaint' });
    await decide(poster, worker, 'accept');
    expect(mailerEmailsTo(worker.email)).toHaveLength(1);
  });
});
