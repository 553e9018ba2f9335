import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PAGE_SIZE } from '../../shared/admin.js';
import type Stripe from 'stripe';
import type { AdminPaymentRecord, JobPaymentStart, Page, PaymentRecord } from '../../shared/api.js';
import { DRAFT_TTL_BACKSTOP_SECONDS, DRAFT_TTL_SECONDS } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import { estimatedCardFeeCents } from '../../shared/money.js';
import type { CreateJobRequest } from '../../shared/schemas/job.js';
import { db, itemExists, tableName } from '../lib/db.js';
import { HttpError, conflict, notFound, tooManyRequests } from '../lib/errors.js';
import { countAttempt } from '../lib/rate-limit.js';
import { queryShardedPage } from '../lib/sharded-lists.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT } from '../routes.js';
import { keys } from '../table.js';
import { recordSecurityEvent } from '../lib/admin-actions.js';
import { pushPaymentChanged } from './admin-live.js';
import { jobEvent } from '../jobs/job-events.js';
import { jobTransition } from '../jobs/job-transitions.js';
import { jobScope, movementPut, transactLedger } from './ledger.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { getJob, newJob, putNewJob, toJobSummary, type JobItem } from '../jobs/jobs.js';
import { profileNames } from '../people/profiles.js';
import { ensureCustomer } from './payment-accounts.js';
import { paymentRecordPut } from './payment-records.js';
import { voidGoneDraft } from './job-money.js';
import { createJobPaymentIntent } from './stripe-moves.js';


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
  const intent = await createJobPaymentIntent(
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
    `job-payment-${draft.id}`,
  );
  const job: JobItem = {
    ...draft,
    stripePaymentIntentId: intent.id,
    // The retry schedule removes a draft a day old and cancels its PaymentIntent
    // (functions/jobs/draft-expiry.ts); the item's TTL is only the backstop after it.
    expiresAt: Math.floor(Date.now() / 1000) + DRAFT_TTL_SECONDS + DRAFT_TTL_BACKSTOP_SECONDS,
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
 * duplicate webhooks apply it once. Returns the job and whether this call opened it. A payment
 * that succeeded for a draft already removed (deleted, expired, its poster's account deleted) is
 * refunded through the draft's void decision, and answered 409 saying so.
 */
export async function openPaidJob(paymentIntentId: string, eventId?: string): Promise<{ job: JobItem; opened: boolean }> {
  const intent = await (await stripe()).paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] });
  if (intent.status !== 'succeeded') throw new HttpError(409, MSG.payments.notSucceeded);
  const jobId = intent.metadata.jobId ?? '';
  const job = await getJob(jobId, { includeDeleting: true, consistentRead: true });
  if (job && job.stripePaymentIntentId !== intent.id) throw notFound(MSG.jobs.notFound);
  // A job that opened and went since (deleted, its money decided with it) has its payment row: nothing to do.
  if (job?.deletingAt && job.status !== 'awaiting_payment') return { job, opened: false };
  if (!job && (await itemExists(keys.payment(intent.id)))) throw notFound(MSG.jobs.notFound);
  if (!job || job.deletingAt) {
    await voidGoneDraft({ id: jobId, posterId: intent.metadata.posterId ?? '', title: intent.description ?? '', postedAmount: intent.amount, stripePaymentIntentId: intent.id });
    if (eventId) await markProcessed(eventId);
    throw conflict(MSG.payments.draftGoneRefunded);
  }
  if (job.status !== 'awaiting_payment') return { job, opened: false };
  const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;

  const paidAt = new Date().toISOString();
  const paymentMethod = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  const saved = intent.setup_future_usage && paymentMethod ? { stripePaymentMethodId: paymentMethod } : {};
  const { updated: opened, update } = jobTransition(job, 'pay', { paidAt, expiresAt: undefined, ...saved, ...(chargeId ? { stripeChargeId: chargeId } : {}) }, {
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
      transactLedger([
        { Update: update },
        paymentRecordPut(payment),
        jobEvent(JOB_EVENT.posted, opened, 'posted'),
        ...movementPut({ scope: jobScope(job.id), movementId: 'charge', kind: 'charge', from: ledgerAccount.card(job.posterId), to: ledgerAccount.escrow(job.id), amount: intent.amount, platformFee: payment.platformFee, stripe: { kind: 'payment_intent', id: intent.id }, settled: Boolean(eventId) }, paidAt),
        ...movementPut({ scope: jobScope(job.id), movementId: 'card_fee', kind: 'card_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: payment.stripeFee, settled: true }, paidAt),
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
 * The job a payment row belongs to, for the admin's refund from the payments table: a tip is
 * its own money and is not refunded with the job (shared/ledger.ts), so its row answers 409.
 */
export async function jobOfPayment(paymentIntentId: string): Promise<JobItem> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.payment(paymentIntentId), ConsistentRead: true }));
  if (!Item) throw notFound(MSG.payments.refundFailed);
  if (Item.kind === 'tip') throw conflict(MSG.tips.notRefundable);
  const job = await getJob(Item.jobId as string, { consistentRead: true, includeDeleting: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  return job;
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
    ...(item.kind === 'tip' || item.kind === 'top_up' ? { kind: item.kind } : {}),
    transferId: (item.transferId as string | undefined) ?? null,
    ...(item.refundReason ? { refundReason: item.refundReason as string } : {}),
    ...(item.refundedAmount ? { refundedAmount: item.refundedAmount as number } : {}),
    ...(item.chargeback ? { chargeback: item.chargeback as NonNullable<PaymentRecord['chargeback']> } : {}),
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

/**
 * The payment of one job as the admin's Transactions tab shows it (the Jobs tab's way to a paid
 * job's "Reverse & refund"): one GetItem of the job, one of its payment; none before it was paid.
 */
export async function paymentsOfJob(jobId: string): Promise<Page<AdminPaymentRecord>> {
  const job = await getJob(jobId, { includeDeleting: true });
  if (!job?.stripePaymentIntentId) return { items: [], nextCursor: null };
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.payment(job.stripePaymentIntentId) }));
  return { items: Item ? await adminPaymentRecords([Item]) : [], nextCursor: null };
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
