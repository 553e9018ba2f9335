/**
 * The consistency check after a load run: nothing lost, nothing doubled. The facts are read
 * from the table (a full scan: the run's own table) and the Stripe simulator; `checkConsistency`
 * is the pure judgement over them (unit-tested in test/unit/load-consistency.test.ts).
 */
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { MAX_PENDING_APPLICATIONS } from '../../shared/limits.js';
import { CHAT_GRACE_MS, type SocketRecord } from './protocol.js';

export interface JobFact {
  id: string;
  status: string;
  posterId: string;
  stripePaymentIntentId?: string;
  pendingApplications?: number;
}

export interface ConsistencyFacts {
  jobs: JobFact[];
  /** The table's payment rows (tips left out). */
  payments: Array<{ jobId: string; paymentIntentId: string }>;
  /** Each job's PaymentIntent as Stripe has it. */
  intents: Record<string, { status: string; jobId: string }>;
  /** Each job's transfers at Stripe (tips left out). */
  transfers: Record<string, string[]>;
  applications: Array<{ jobId: string; workerId: string; status: string }>;
  messages: Array<{ conversationId: string; id: string; senderId: string; createdAt: string }>;
  /** With what tells one event of a type from another on the same job: its conversation, or the worker it is about. */
  notifications: Array<{ userId: string; jobId: string | null; type: string; conversationId?: string; workerId?: string }>;
  sockets: SocketRecord[];
}

export interface Finding {
  kind: 'lost' | 'doubled';
  what: string;
}

/** Notification types written more than once for one user, job and conversation by design (one per quiet period of a chat). */
const REPEATING_NOTIFICATIONS = new Set(['new_message', 'dispute_update']);

const countBy = <T>(items: readonly T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

export function checkConsistency(facts: ConsistencyFacts): Finding[] {
  const findings: Finding[] = [];
  const lost = (what: string) => findings.push({ kind: 'lost', what });
  const doubled = (what: string) => findings.push({ kind: 'doubled', what });

  // Money: every job whose payment succeeded has exactly one payment row and at most one transfer.
  const paymentsOfJob = countBy(facts.payments, (payment) => payment.jobId);
  for (const job of facts.jobs) {
    const intent = job.stripePaymentIntentId ? facts.intents[job.id] : undefined;
    const paid = intent?.status === 'succeeded';
    const rows = paymentsOfJob.get(job.id) ?? 0;
    const transfers = facts.transfers[job.id]?.length ?? 0;
    if (paid && job.status === 'awaiting_payment') lost(`job ${job.id}: its payment succeeded at Stripe but the job never opened`);
    if (paid && rows === 0) lost(`job ${job.id}: its payment succeeded at Stripe but has no payment row`);
    if (rows > 1) doubled(`job ${job.id}: ${rows} payment rows`);
    if (transfers > 1) doubled(`job ${job.id}: ${transfers} transfers`);
    if (job.status === 'paid' && transfers === 0) lost(`job ${job.id}: released but no transfer at Stripe`);
    if (job.status !== 'paid' && transfers > 0) lost(`job ${job.id}: a transfer at Stripe but the job is ${job.status}`);
  }

  // Applications (a job takes at most MAX_PENDING_APPLICATIONS pending ones): every open job within it, its counter equal to its pending applications.
  const pendingOfJob = countBy(
    facts.applications.filter((application) => application.status === 'pending'),
    (application) => application.jobId,
  );
  for (const job of facts.jobs.filter((candidate) => candidate.status === 'open')) {
    const counted = job.pendingApplications ?? 0;
    const actual = pendingOfJob.get(job.id) ?? 0;
    if (actual > MAX_PENDING_APPLICATIONS) doubled(`job ${job.id}: ${actual} pending applications (at most ${MAX_PENDING_APPLICATIONS})`);
    if (counted !== actual) (counted > actual ? doubled : lost)(`job ${job.id}: counts ${counted} pending applications, has ${actual}`);
  }

  // Chat: every accepted send persisted once; pushed once to each socket of the other party open when it was sent.
  const persisted = countBy(facts.messages, (message) => message.id);
  for (const socket of facts.sockets) {
    for (const sent of socket.sent.filter((message) => message.status === 201)) {
      const copies = persisted.get(sent.id) ?? 0;
      if (copies === 0) lost(`message ${sent.id}: answered 201 but not persisted`);
      if (copies > 1) doubled(`message ${sent.id}: persisted ${copies} times`);
    }
    for (const [id, times] of Object.entries(socket.received)) {
      if (times > 1) doubled(`message ${id}: pushed ${times} times to one socket of ${socket.userId}`);
    }
  }
  // Pushes are checked for the messages the load sent: when each send started is known.
  const acceptedSends = facts.sockets.flatMap((socket) => socket.sent).filter((message) => message.status === 201);
  for (const socket of facts.sockets) {
    const due = acceptedSends.filter(
      (message) => message.conversationId === socket.conversationId && message.senderId !== socket.userId && message.startedAt >= socket.openedAt && message.startedAt <= socket.closedAt - CHAT_GRACE_MS,
    );
    for (const message of due) if (!socket.received[message.id]) lost(`message ${message.id}: never pushed to the open socket of ${socket.userId}`);
  }

  // Notifications: one per event (a user, a type, a job, a conversation or the worker it is about).
  const notifications = facts.notifications.filter((notification) => !REPEATING_NOTIFICATIONS.has(notification.type));
  const eventOf = (n: ConsistencyFacts['notifications'][number]) =>
    `${n.type} for ${n.userId} on job ${n.jobId ?? '-'}${n.conversationId ? ` conversation ${n.conversationId}` : ''}${n.workerId ? ` about ${n.workerId}` : ''}`;
  for (const [event, count] of countBy(notifications, eventOf)) {
    if (count > 1) doubled(`notification ${event}: written ${count} times`);
  }
  const notified = new Set(notifications.map((n) => `${n.type}|${n.userId}|${n.jobId}`));
  const posterOf = new Map(facts.jobs.map((job) => [job.id, job.posterId]));
  const applicantsNotified = new Set(notifications.filter((n) => n.type === 'new_applicant').map((n) => `${n.jobId}|${n.workerId}`));
  for (const application of facts.applications) {
    if (!applicantsNotified.has(`${application.jobId}|${application.workerId}`)) {
      lost(`notification new_applicant for ${posterOf.get(application.jobId)} on job ${application.jobId} about ${application.workerId}`);
    }
  }
  const accepted = facts.applications.filter((application) => application.status === 'accepted');
  for (const application of accepted) {
    if (!notified.has(`application_accepted|${application.workerId}|${application.jobId}`)) lost(`notification application_accepted for ${application.workerId} on job ${application.jobId}`);
  }
  const workerOf = new Map(accepted.map((application) => [application.jobId, application.workerId]));
  for (const job of facts.jobs) {
    const workerId = workerOf.get(job.id);
    if ((job.status === 'completed' || job.status === 'paid') && !notified.has(`job_completed|${job.posterId}|${job.id}`)) lost(`notification job_completed for ${job.posterId} on job ${job.id}`);
    if (job.status === 'paid' && workerId && !notified.has(`payment_released|${workerId}|${job.id}`)) lost(`notification payment_released for ${workerId} on job ${job.id}`);
  }
  return findings;
}

async function scanAll(db: DynamoDBDocumentClient, tableName: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/**
 * Reads the facts about the load's users (`userIds`: a running `npm run dev` also holds its demo
 * data): one scan of the table, then each of their jobs' PaymentIntent and transfers at Stripe.
 */
export async function gatherFacts(db: DynamoDBDocumentClient, tableName: string, stripe: Stripe, userIds: ReadonlySet<string>, sockets: SocketRecord[]): Promise<ConsistencyFacts> {
  const scanned = await scanAll(db, tableName);
  const loadJobs = new Set(scanned.filter((item) => String(item.pk).startsWith('JOB#') && item.sk === 'JOB' && userIds.has(String(item.posterId))).map((item) => String(item.id)));
  // Every item of the load's jobs and conversations, and the load's users' notifications.
  const items = scanned.filter((item) => {
    const [prefix, id] = String(item.pk).split('#');
    if (prefix === 'JOB' || prefix === 'CONV') return loadJobs.has(id ?? '');
    if (item.type === 'payment') return loadJobs.has(String(item.jobId));
    return item.type === 'notification' && userIds.has(String(item.userId));
  });
  const sk = (item: Record<string, unknown>) => String(item.sk);
  const pk = (item: Record<string, unknown>) => String(item.pk);
  const jobs: JobFact[] = items
    .filter((item) => pk(item).startsWith('JOB#') && sk(item) === 'JOB')
    .map((item) => ({
      id: String(item.id),
      status: String(item.status),
      posterId: String(item.posterId),
      stripePaymentIntentId: item.stripePaymentIntentId as string | undefined,
      pendingApplications: item.pendingApplications === undefined ? undefined : Number(item.pendingApplications),
    }));
  const intents: ConsistencyFacts['intents'] = {};
  const transfers: ConsistencyFacts['transfers'] = {};
  for (const job of jobs) {
    if (job.stripePaymentIntentId) {
      const intent = await stripe.paymentIntents.retrieve(job.stripePaymentIntentId);
      intents[job.id] = { status: intent.status, jobId: intent.metadata.jobId ?? '' };
    }
    const listed = await stripe.transfers.list({ transfer_group: job.id, limit: 100 });
    transfers[job.id] = listed.data.filter((transfer) => transfer.metadata?.tip !== 'true').map((transfer) => transfer.id);
  }
  return {
    jobs,
    intents,
    transfers,
    payments: items.filter((item) => item.type === 'payment' && item.kind !== 'tip').map((item) => ({ jobId: String(item.jobId), paymentIntentId: String(item.id) })),
    applications: items
      .filter((item) => pk(item).startsWith('JOB#') && sk(item).startsWith('APP#'))
      .map((item) => ({ jobId: pk(item).slice('JOB#'.length), workerId: sk(item).slice('APP#'.length), status: String(item.status) })),
    messages: items
      .filter((item) => pk(item).startsWith('CONV#') && sk(item).startsWith('MSG#'))
      .map((item) => ({ conversationId: pk(item).slice('CONV#'.length).replace('#', '_'), id: String(item.id), senderId: String(item.senderId), createdAt: String(item.createdAt) })),
    notifications: items
      .filter((item) => item.type === 'notification')
      .map((item) => ({
        userId: String(item.userId),
        jobId: (item.jobId as string | null) ?? null,
        type: String(item.notificationType),
        conversationId: (item.metadata as Record<string, string> | undefined)?.conversation_id,
        workerId: (item.metadata as Record<string, string> | undefined)?.worker_id,
      })),
    sockets,
  };
}
