import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PAGE_SIZE } from '../../shared/admin.js';
import type Stripe from 'stripe';
import type { AdminPaymentRecord, JobPaymentStart, Page, PaymentRecord } from '../../shared/api.js';
import { DRAFT_TTL_SECONDS } from '../../shared/job-states.js';
import { MSG } from '../../shared/messages.js';
import { estimatedCardFeeCents } from '../../shared/money.js';
import type { CreateJobRequest } from '../../shared/schemas/job.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { HttpError, badRequest, conflict, notFound, tooManyRequests } from '../lib/errors.js';
import { countAttempt } from '../lib/rate-limit.js';
import { queryShardedPage } from '../lib/sharded-lists.js';
import { stripe } from '../lib/stripe.js';
import { isStripeError } from '../lib/stripe-errors.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT } from '../routes.js';
import { keys, timeOrdered } from '../table.js';
import { adminActionPut, recordSecurityEvent } from './admin-actions.js';
import { pushPaymentChanged } from './admin-live.js';
import { jobEvent } from './events.js';
import { jobTransition } from './job-transitions.js';
import { getJob, newJob, putNewJob, toJobSummary, type JobItem } from './jobs.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { moneyCounterWrites } from './money-totals.js';
import { getProfile, profileNames } from './profiles.js';
import { ensureCustomer } from './payment-accounts.js';


/** Suspicious-payment rules (spec 1 §9): they raise an alert for the admin, they do not block. */
const SUSPICIOUS = { singleAmount: 50_000, dayTotal: 200_000, dayCount: 10 } as const;

/** Records a security event when a payment trips a rule; answers the reasons (empty when none). */
async function flagSuspiciousPayment(posterId: string, amount: number): Promise<string> {
  const since = new Date(Date.now() - 86_400_000).toISOString();
  const { Items = [] } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk > :since',
      ExpressionAttributeValues: { ':pk': keys.paymentsOfPoster(posterId), ':since': since },
      ProjectionExpression: 'amount',
    }),
  );
  const dayTotal = Items.reduce((sum, item) => sum + Number(item.amount), 0);
  const reasons = [
    amount > SUSPICIOUS.singleAmount && 'single amount over the limit',
    dayTotal + amount > SUSPICIOUS.dayTotal && '24-hour total over the limit',
    Items.length + 1 >= SUSPICIOUS.dayCount && '10 or more payments in 24 hours',
  ].filter(Boolean);
  if (reasons.length) {
    await recordSecurityEvent('suspicious_payment', 'user', posterId, { amount, dayTotal, dayCount: Items.length }, reasons.join('; '));
  }
  return reasons.join('; ');
}

/**
 * Pay to post: the job is saved as a draft awaiting payment (seen by its poster only, expiring
 * after a day), with a PaymentIntent for payment + fee that names the job. The job opens when
 * the payment succeeds (openPaidJob), whichever of the client's confirmation and the webhook
 * arrives first.
 */
export async function startJobPayment(request: CreateJobRequest, posterId: string): Promise<JobPaymentStart> {
  const rate = await countAttempt('paymentCreation', posterId);
  if (!rate.allowed) throw tooManyRequests(MSG.payments.tooManyAttempts, rate.retryAfterSeconds);
  const draft = newJob(request, posterId, new Date().toISOString(), 'awaiting_payment');
  const suspiciousPayment = await flagSuspiciousPayment(posterId, draft.postedAmount);
  const customer = await ensureCustomer(posterId);
  const intent = await (await stripe()).paymentIntents.create(
    {
      amount: draft.postedAmount,
      currency: 'usd',
      // The card is saved to the poster for a tip after release, charged without them present.
      customer,
      setup_future_usage: 'off_session',
      description: draft.title,
      metadata: { jobId: draft.id, posterId },
      transfer_group: draft.id,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    },
    { idempotencyKey: `job-payment-${draft.id}` },
  );
  const job: JobItem = {
    ...draft,
    stripePaymentIntentId: intent.id,
    expiresAt: Math.floor(Date.now() / 1000) + DRAFT_TTL_SECONDS,
    // The job-flags rule flags the job for the admin once it opens.
    ...(suspiciousPayment ? { suspiciousPayment } : {}),
  };
  await putNewJob(job);
  return { job: toJobSummary(job), payment: { paymentIntentId: intent.id, clientSecret: intent.client_secret ?? '', amount: intent.amount } };
}

/**
 * The card step again for a draft its poster left (a reload, a closed tab): the draft's own
 * PaymentIntent, never a new one, so however often it is resumed the job is charged once.
 * Anyone but the poster is answered as if there were no such job. A draft whose intent already
 * succeeded (the page closed before it confirmed) is opened here instead, and answered 409.
 */
export async function resumeJobPayment(jobId: string, callerId: string): Promise<JobPaymentStart> {
  const job = await getJob(jobId);
  if (!job || job.posterId !== callerId || !job.stripePaymentIntentId) throw notFound(MSG.jobs.notFound);
  if (job.status !== 'awaiting_payment') throw conflict(MSG.jobs.statusChanged);
  const intent = await (await stripe()).paymentIntents.retrieve(job.stripePaymentIntentId);
  if (intent.status === 'succeeded') {
    await openPaidJob(intent.id);
    throw conflict(MSG.jobs.statusChanged);
  }
  return { job: toJobSummary(job), payment: { paymentIntentId: intent.id, clientSecret: intent.client_secret ?? '', amount: intent.amount } };
}

/** The card fee Stripe charged, from the intent's charge, or the configured estimate. */
export async function stripeFeeOf(intent: Stripe.PaymentIntent): Promise<number> {
  const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
  if (!chargeId) return estimatedCardFeeCents(intent.amount);
  const charge = await (await stripe()).charges.retrieve(chargeId, { expand: ['balance_transaction'] });
  const transaction = charge.balance_transaction;
  return transaction && typeof transaction === 'object' ? transaction.fee : estimatedCardFeeCents(intent.amount);
}

/** The marker that makes a webhook event's effect happen once (written in the same transaction). */
export function processedMarker(eventId: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.idempotency('stripe', eventId), type: 'processedEvent', expiresAt: Math.floor(Date.now() / 1000) + 30 * 86_400 },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Opens a paid draft exactly once: the job's `awaiting_payment -> open` change, the payment
 * row and (for a webhook) the event marker are one transaction, so racing confirmations and
 * duplicate webhooks apply it once. Returns the job and whether this call opened it.
 */
export async function openPaidJob(paymentIntentId: string, eventId?: string): Promise<{ job: JobItem; opened: boolean }> {
  const intent = await (await stripe()).paymentIntents.retrieve(paymentIntentId);
  if (intent.status !== 'succeeded') throw new HttpError(409, MSG.payments.notSucceeded);
  const jobId = intent.metadata.jobId ?? '';
  const job = await getJob(jobId, { includeDeleting: true });
  if (!job || job.stripePaymentIntentId !== intent.id) throw notFound(MSG.jobs.notFound);
  if (job.status !== 'awaiting_payment') return { job, opened: false };

  const paidAt = new Date().toISOString();
  const paymentMethod = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  const saved = intent.setup_future_usage && paymentMethod ? { stripePaymentMethodId: paymentMethod } : {};
  const { updated: opened, update } = jobTransition(job, 'pay', { paidAt, expiresAt: undefined, ...saved }, {
    by: { posterId: job.posterId },
    condition: { expression: 'stripePaymentIntentId = :intent', values: { ':intent': intent.id } },
  });
  const payment: PaymentRecord = {
    id: intent.id,
    jobId: job.id,
    jobTitle: job.title,
    posterId: job.posterId,
    workerId: null,
    amount: intent.amount,
    platformFee: job.platformFee,
    stripeFee: await stripeFeeOf(intent),
    stripePaymentIntentId: intent.id,
    status: 'succeeded',
    transferId: null,
    createdAt: paidAt,
  };
  try {
    await retryLostRaces(() =>
      transactWrite([
        { Update: update },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.payment(intent.id),
              type: 'payment',
              ...payment,
              gsi1pk: keys.paymentsLog().partitionOf(intent.id),
              gsi1sk: timeOrdered(paidAt, intent.id),
              gsi2pk: keys.paymentsOfPoster(job.posterId),
              gsi2sk: paidAt,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        jobEvent(JOB_EVENT.posted, opened),
        ...moneyCounterWrites(paidAt, { payments: 1, gross: payment.amount, platformFees: payment.platformFee, cardFees: payment.stripeFee }),
        ...(eventId ? [processedMarker(eventId)] : []),
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) {
      return { job: (await getJob(job.id, { includeDeleting: true })) ?? job, opened: false };
    }
    throw error;
  }
  await pushPaymentChanged(intent.id);
  return { job: opened, opened: true };
}

/**
 * Refunds a job's payment in full (deleting an open paid job, cancelling an assigned one, or
 * an admin's decision). Stripe's idempotency key makes repeated calls refund once; the row
 * moves `succeeded -> refunded` once. A charge refunded already (the admin refunded before the
 * job was cancelled or deleted, under another key) is what was asked: done, not a failure.
 */
export async function refundPayment(paymentIntentId: string, reason: string, idempotencyKey: string): Promise<boolean> {
  try {
    await (await stripe()).refunds.create(
      { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { reason: reason.slice(0, 500) } },
      { idempotencyKey },
    );
  } catch (error) {
    if (!(isStripeError(error) && error.code === 'charge_already_refunded')) throw error;
  }
  return markRefunded(paymentIntentId);
}

/**
 * The payment row `succeeded -> refunded`, with the refund counted in the money overview;
 * false when it already was (or is unknown).
 */
export async function markRefunded(paymentIntentId: string, extra: TransactItem[] = []): Promise<boolean> {
  const { Item: row } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.payment(paymentIntentId), ProjectionExpression: 'amount' }));
  if (!row) return false;
  try {
    await retryLostRaces(() => {
      const refundedAt = new Date().toISOString();
      return transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.payment(paymentIntentId),
            UpdateExpression: 'SET #status = :refunded, refundedAt = :now',
            ConditionExpression: '#status = :succeeded',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':refunded': 'refunded', ':succeeded': 'succeeded', ':now': refundedAt },
          },
        },
        ...moneyCounterWrites(refundedAt, { refunds: 1, refundedAmount: Number(row.amount) }),
        ...extra,
      ]);
    });
  } catch (error) {
    if (error instanceof TransactionRefused) return false;
    throw error;
  }
  await pushPaymentChanged(paymentIntentId);
  return true;
}

/**
 * An admin refund (spec 2 §5 "Payment record"): the reason is claimed on the row first, so
 * racing clicks with the same reason all reach Stripe with the same idempotency key and
 * parameters (one refund, the row moves once, and only that call is logged), while a
 * refund with another reason is refused here with a 409 instead of reaching Stripe with a
 * reused key and different parameters.
 */
export async function adminRefund(paymentIntentId: string, reason: string, adminId: string): Promise<boolean> {
  const claimed = await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.payment(paymentIntentId),
        UpdateExpression: 'SET refundReason = :reason',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(kind) AND #status = :succeeded AND (attribute_not_exists(refundReason) OR refundReason = :reason)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':reason': reason, ':succeeded': 'succeeded' },
      }),
    ),
  );
  if (!claimed) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.payment(paymentIntentId), ConsistentRead: true }));
    if (!Item) throw notFound(MSG.payments.refundFailed);
    if (Item.kind === 'tip') throw conflict(MSG.tips.notRefundable);
    throw conflict(Item.status === 'refunded' ? MSG.admin.alreadyRefunded : MSG.admin.refundInProgressOtherReason);
  }
  await (await stripe()).refunds.create(
    { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { reason } },
    { idempotencyKey: `admin-refund-${paymentIntentId}` },
  );
  const logged = adminActionPut({ adminId, actionType: 'issue_refund', targetType: 'payment', targetId: paymentIntentId, details: {}, reason });
  return markRefunded(paymentIntentId, [logged]);
}

/**
 * Releases a completed job's payment to its worker (spec 2 §5 "Release payment"): a Stripe
 * transfer of the worker's payment, keyed by the job so it can happen once however many
 * times release is called, then `completed -> paid` with the worker notified and their
 * completed-jobs count raised, in one transaction. Calling it again on a paid job returns the
 * job as it is. The admin releasing a job not their own must give a reason: the
 * release_payment entry of the audit log is written in that same transaction, so it exists
 * exactly when this call paid the worker.
 */
export async function releasePayment(jobId: string, callerId: string, options: ReleaseOptions = {}): Promise<PaidJob> {
  const { admin } = options;
  const job = await getJob(jobId);
  const asAdmin = admin !== undefined && job?.posterId !== callerId;
  if (!job || (job.posterId !== callerId && !asAdmin)) throw notFound(MSG.jobs.notFound);
  if (job.status === 'paid') return { job };
  if (asAdmin && !admin.reason) throw badRequest(MSG.payments.releaseReasonRequired);
  if (!job.workerId) throw badRequest(MSG.payments.noWorkerAssigned);
  if (job.status !== 'completed') throw new HttpError(409, MSG.payments.onlyCompletedRelease);
  if (!job.stripePaymentIntentId) throw new HttpError(409, MSG.payments.cannotReleaseYet);
  const worker = await getProfile(job.workerId);
  if (!worker?.stripeAccountId) throw badRequest(MSG.payments.workerNotConnected);
  if (worker.paymentAccount.status !== 'complete') throw badRequest(MSG.payments.workerSetupIncomplete);

  const transfer = await (await stripe()).transfers.create(
    { amount: job.payment, currency: 'usd', destination: worker.stripeAccountId, transfer_group: job.id, metadata: { jobId: job.id, workerId: worker.id } },
    { idempotencyKey: `release-${job.id}` },
  );
  const logged = asAdmin
    ? [adminActionPut({ adminId: callerId, actionType: 'release_payment', targetType: 'job', targetId: job.id, details: { amount: job.payment, transferId: transfer.id }, reason: admin.reason })]
    : [];
  return markJobPaid(job, transfer.id, logged, options);
}

/** Who releases, when it is not the poster's own click. */
export interface ReleaseOptions {
  /** The admin (releasing a job not their own) and the reason the audit log keeps. */
  admin?: { reason: string };
  /** The auto-release schedule releases (DECISIONS.md "Wave 3"): both parties are told it was automatic. */
  automatic?: boolean;
}

/** A job after release; the notification is there when this call made it paid. */
export interface PaidJob {
  job: JobItem;
  notification?: ReturnType<typeof notificationItem>;
}

/**
 * `completed -> paid` for a transfer that was made: the job, its payment row, the worker's
 * completed-jobs counter and the payment_released notification, atomically. Safe to repeat
 * (the transfer webhook calls it too, in case the releasing call died after the transfer).
 */
export async function markJobPaid(job: JobItem, transferId: string, extra: TransactItem[] = [], options: ReleaseOptions = {}): Promise<PaidJob> {
  // A pending auto-release ends here (the schedules rule deletes its schedules on `paid`).
  const { updated: paid, update } = jobTransition(job, 'release', { transferId, autoReleaseAt: undefined, releasedAt: new Date().toISOString() }, { by: { workerId: job.workerId! } });
  const amount = (job.payment / 100).toFixed(2);
  const notification = notificationItem({
    userId: job.workerId!,
    jobId: job.id,
    type: 'payment_released',
    title: options.automatic ? MSG.payments.autoReleasedTitle : 'Payment released',
    message: options.automatic
      ? MSG.payments.autoReleasedToWorker(amount, job.title)
      : `The poster released ${amount} USD for "${job.title}". The funds arrive within 1-2 business days.`,
    metadata: { jobTitle: job.title },
  });
  const posterNotification = options.automatic
    ? notificationItem({
        userId: job.posterId,
        jobId: job.id,
        type: 'payment_released',
        title: MSG.payments.autoReleasedTitle,
        message: MSG.payments.autoReleasedToPoster(amount, job.title),
        metadata: { jobTitle: job.title },
      })
    : undefined;
  try {
    await retryLostRaces(() =>
      transactWrite([
        { Update: update },
        {
          Update: {
            TableName: tableName(),
            Key: keys.profile(job.workerId!),
            UpdateExpression: 'ADD completedJobs :one',
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        ...(job.stripePaymentIntentId
          ? [
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.payment(job.stripePaymentIntentId),
                  UpdateExpression: 'SET transferId = :transfer, workerId = :worker',
                  ExpressionAttributeValues: { ':transfer': transferId, ':worker': job.workerId },
                },
              },
            ]
          : []),
        jobEvent(JOB_EVENT.updated, paid, 'paid'),
        ...notificationWrites(notification),
        ...(posterNotification ? notificationWrites(posterNotification) : []),
        ...extra,
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) {
      const current = await getJob(job.id);
      if (current?.status === 'paid') return { job: current };
      throw conflict(MSG.jobs.statusChanged);
    }
    throw error;
  }
  if (job.stripePaymentIntentId) await pushPaymentChanged(job.stripePaymentIntentId);
  return { job: paid, notification };
}

/** Stored payment items as the admin's tables show them, with the poster's and worker's names (one BatchGetItem). */
export async function adminPaymentRecords(stored: Array<Record<string, unknown>>): Promise<AdminPaymentRecord[]> {
  const items = stored.map((item): PaymentRecord => ({
    id: item.id as string,
    jobId: item.jobId as string,
    jobTitle: item.jobTitle as string,
    posterId: item.posterId as string,
    workerId: (item.workerId as string | undefined) ?? null,
    amount: item.amount as number,
    platformFee: item.platformFee as number,
    stripeFee: item.stripeFee as number,
    stripePaymentIntentId: item.stripePaymentIntentId as string,
    status: item.status as PaymentRecord['status'],
    ...(item.kind === 'tip' ? { kind: 'tip' as const } : {}),
    transferId: (item.transferId as string | undefined) ?? null,
    ...(item.refundReason ? { refundReason: item.refundReason as string } : {}),
    createdAt: item.createdAt as string,
  }));
  const names = await profileNames(items.flatMap((payment) => (payment.workerId ? [payment.posterId, payment.workerId] : [payment.posterId])));
  return items.map((payment) => ({
    ...payment,
    posterName: names.get(payment.posterId) ?? null,
    workerName: payment.workerId ? (names.get(payment.workerId) ?? null) : null,
  }));
}

/** Payments newest first, for the admin: 50 per page (one Query per shard, merged), with the poster's and worker's names (one BatchGetItem). */
export async function listPayments(cursor?: string): Promise<Page<AdminPaymentRecord>> {
  const page = await queryShardedPage(keys.paymentsLog().partitions, { IndexName: 'GSI1' }, ADMIN_PAGE_SIZE, cursor);
  return { items: await adminPaymentRecords(page.items), nextCursor: page.nextCursor };
}

/** Records that a webhook event was handled; false when it already had been (a duplicate). */
export async function markProcessed(eventId: string): Promise<boolean> {
  try {
    await retryLostRaces(() => transactWrite([processedMarker(eventId)]));
    return true;
  } catch (error) {
    if (error instanceof TransactionRefused) return false;
    throw error;
  }
}
