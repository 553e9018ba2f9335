import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import type { TipAnswer } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { estimatedCardFeeCents } from '../../shared/money.js';
import { tipAmountProblem, tipWindowEndsAt } from '../../shared/tips.js';
import { db, isConditionFailure, tableName } from '../lib/db.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { pushPaymentChanged } from './admin-live.js';
import { getJob, toPartyJob, type JobItem } from './jobs.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { jobScope, movementPut, transactLedger } from './ledger.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { isPaymentAccountComplete } from './payment-accounts.js';
import { getProfile } from './profiles.js';

/** The tip of a job as stored (keys.tip): claimed `pending` before Stripe is called, `succeeded` once transferred. */
interface TipItem {
  jobId: string;
  amount: number;
  status: 'pending' | 'succeeded';
  paymentIntentId?: string;
}

/** The PaymentIntent with its charge's balance transaction: the card fee in the same call. */
const WITH_FEE = ['latest_charge.balance_transaction'];

function cardFeeOf(intent: Stripe.PaymentIntent): number {
  const charge = intent.latest_charge;
  const transaction = charge && typeof charge === 'object' ? charge.balance_transaction : null;
  return transaction && typeof transaction === 'object' ? transaction.fee : estimatedCardFeeCents(intent.amount);
}

/** What the poster's request may tip: their own paid job, within the window, an amount within the limits. */
function checkTippable(job: JobItem, amount: number): JobItem {
  if (job.status !== 'paid' || !job.workerId) throw conflict(MSG.tips.onlyPaid);
  // Jobs released before releasedAt was kept: their last change was the release.
  if (Date.now() > Date.parse(tipWindowEndsAt(job.releasedAt ?? job.updatedAt))) throw conflict(MSG.tips.windowClosed);
  const problem = tipAmountProblem(amount, job.payment);
  if (problem) throw badRequest(problem);
  if (!job.stripePaymentMethodId) throw conflict(MSG.tips.noSavedCard);
  return job;
}

/**
 * Claims the job's one tip for this amount. A claim of the same amount goes on (a retry, the
 * second click of a double submit, the return from the card step): every path to Stripe then
 * uses the same PaymentIntent, so the poster is charged once. Another amount while one is
 * pending, or any tip once one succeeded, is a 409.
 */
async function claimTip(job: JobItem, amount: number): Promise<TipItem> {
  try {
    const { Attributes } = await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tip(job.id),
        UpdateExpression: 'SET #type = :type, jobId = :job, posterId = :poster, amount = :amount, #status = if_not_exists(#status, :pending), createdAt = if_not_exists(createdAt, :now)',
        ConditionExpression: 'attribute_not_exists(pk) OR (amount = :amount AND #status = :pending)',
        ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
        ExpressionAttributeValues: { ':type': 'tip', ':job': job.id, ':poster': job.posterId, ':amount': amount, ':pending': 'pending', ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as TipItem;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.tip(job.id), ConsistentRead: true }));
    throw conflict(Item?.status === 'succeeded' ? MSG.tips.alreadyTipped : MSG.tips.otherAmountInProgress);
  }
}

/**
 * The tip's PaymentIntent: the one already made for this claim, or a new off-session charge of
 * the card the job's payment saved. The idempotency key makes concurrent first attempts one
 * intent; its id is kept on the claim, so an attempt after Stripe forgot the key (24 hours)
 * reads the same intent instead of charging again. A card that cannot be charged off-session
 * (the bank asks for authentication, or declines) answers with the intent as it is.
 */
async function tipIntent(job: JobItem, tip: TipItem, customer: string): Promise<Stripe.PaymentIntent> {
  const client = await stripe();
  if (tip.paymentIntentId) return client.paymentIntents.retrieve(tip.paymentIntentId, { expand: WITH_FEE });
  let intent: Stripe.PaymentIntent;
  try {
    intent = await client.paymentIntents.create(
      {
        amount: tip.amount,
        currency: 'usd',
        customer,
        payment_method: job.stripePaymentMethodId,
        off_session: true,
        confirm: true,
        description: `Tip for ${job.title}`.slice(0, 1000),
        metadata: { tipForJob: job.id, posterId: job.posterId },
        transfer_group: job.id,
        expand: WITH_FEE,
      },
      { idempotencyKey: `tip-${job.id}` },
    );
  } catch (error) {
    const failed = (error as Partial<Stripe.errors.StripeCardError>).payment_intent;
    if ((error as Partial<Stripe.errors.StripeError>).type !== 'StripeCardError' || !failed) throw error;
    intent = failed;
  }
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.tip(job.id),
      UpdateExpression: 'SET paymentIntentId = if_not_exists(paymentIntentId, :intent)',
      ExpressionAttributeValues: { ':intent': intent.id },
    }),
  );
  return intent;
}

/**
 * POST /jobs/{id}/tip: the poster tips the worker of their paid job, at most the job's payment,
 * within 7 days of the release. The tip is charged to the job's saved card off-session and
 * transferred to the worker in full; when the bank wants the poster (3-D Secure, a decline) the
 * answer sends them to the card step with the tip's PaymentIntent, and the same request after it
 * finishes the tip. Exactly once: one claim per job, one PaymentIntent and one transfer by their
 * keys, and the settling transaction happens once (settleTip).
 */
export async function addTip(jobId: string, callerId: string, amount: number): Promise<TipAnswer> {
  const found = await getJob(jobId);
  if (!found) throw notFound(MSG.jobs.notFound);
  if (found.posterId !== callerId) throw forbidden(MSG.tips.onlyPoster);
  // The same tip sent again (its webhook settled it first, a retry) is answered as done.
  if (found.tip !== undefined) {
    if (found.tip === amount) return { status: 'paid', job: toPartyJob(found) };
    throw conflict(MSG.tips.alreadyTipped);
  }
  const job = checkTippable(found, amount);
  const [poster, worker] = await Promise.all([getProfile(job.posterId), getProfile(job.workerId!)]);
  if (!poster?.stripeCustomerId) throw conflict(MSG.tips.noSavedCard);
  if (!worker || !isPaymentAccountComplete(worker)) throw conflict(MSG.payments.workerSetupIncomplete);
  const tip = await claimTip(job, amount);
  if (tip.status === 'succeeded') return { status: 'paid', job: toPartyJob((await getJob(job.id)) ?? job) };
  const intent = await tipIntent(job, tip, poster.stripeCustomerId);
  if (intent.status !== 'succeeded') {
    return {
      status: 'card_needed',
      message: MSG.tips.cardNeeded,
      payment: { paymentIntentId: intent.id, clientSecret: intent.client_secret ?? '', amount: intent.amount },
    };
  }
  return { status: 'paid', job: toPartyJob(await settleTip(job, intent, worker.stripeAccountId!)) };
}

/**
 * The tip's PaymentIntent succeeded, whether the client or the `payment_intent.succeeded` webhook
 * says so first: the worker's transfer (once, by its key) and, in one transaction, the claim to
 * `succeeded`, the tip on the job, the tip's payment row, the money counters and the worker's
 * notification. Whichever call loses the transaction answers the job as it now is.
 */
async function settleTip(job: JobItem, intent: Stripe.PaymentIntent, workerAccount: string): Promise<JobItem> {
  const chargeId = typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge?.id;
  const transfer = await (await stripe()).transfers.create(
    {
      amount: intent.amount,
      currency: 'usd',
      destination: workerAccount,
      transfer_group: job.id,
      ...(chargeId ? { source_transaction: chargeId } : {}),
      metadata: { jobId: job.id, workerId: job.workerId!, tip: 'true' },
    },
    { idempotencyKey: `tip-transfer-${job.id}` },
  );
  const at = new Date().toISOString();
  const stripeFee = cardFeeOf(intent);
  const tipped: JobItem = { ...job, tip: intent.amount, tippedAt: at };
  const notification = notificationItem({
    userId: job.workerId!,
    jobId: job.id,
    type: 'payment_released',
    title: MSG.tips.receivedTitle,
    message: MSG.tips.receivedMessage((intent.amount / 100).toFixed(2), job.title),
    metadata: { jobTitle: job.title },
  });
  try {
    await retryLostRaces(() =>
      transactLedger([
        {
          Update: {
            TableName: tableName(),
            Key: keys.tip(job.id),
            UpdateExpression: 'SET #status = :succeeded, transferId = :transfer, succeededAt = :now',
            ConditionExpression: '#status = :pending AND paymentIntentId = :intent',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':succeeded': 'succeeded', ':pending': 'pending', ':transfer': transfer.id, ':now': at, ':intent': intent.id },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.job(job.id),
            UpdateExpression: 'SET tip = :tip, tippedAt = :now',
            // Still paid: a reversal of the release (the job cancelled) that came first refuses the tip.
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(tip) AND #status = :paid',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':tip': intent.amount, ':now': at, ':paid': 'paid' },
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.payment(intent.id),
              type: 'payment',
              kind: 'tip',
              id: intent.id,
              jobId: job.id,
              jobTitle: job.title,
              posterId: job.posterId,
              workerId: job.workerId,
              amount: intent.amount,
              platformFee: 0,
              stripeFee,
              stripePaymentIntentId: intent.id,
              status: 'succeeded',
              transferId: transfer.id,
              createdAt: at,
              gsi1pk: keys.paymentsLog().partitionOf(intent.id),
              gsi1sk: timeOrdered(at, intent.id),
              gsi2pk: keys.paymentsOfPoster(job.posterId),
              gsi2sk: at,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The platform bears the tip's card fee: the worker gets the whole tip.
        // The tip passes through the job's escrow to the worker in full (shared/ledger.ts).
        ...movementPut({ scope: jobScope(job.id), movementId: 'tip_charge', kind: 'tip_charge', from: ledgerAccount.card(job.posterId), to: ledgerAccount.escrow(job.id), amount: intent.amount, stripe: { kind: 'payment_intent', id: intent.id } }, at),
        ...movementPut({ scope: jobScope(job.id), movementId: 'tip_transfer', kind: 'tip_transfer', from: ledgerAccount.escrow(job.id), to: ledgerAccount.worker(job.workerId!), amount: intent.amount, stripe: { kind: 'transfer', id: transfer.id } }, at),
        ...movementPut({ scope: jobScope(job.id), movementId: 'tip_card_fee', kind: 'card_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: stripeFee, settled: true }, at),
        ...notificationWrites(notification),
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) return (await getJob(job.id)) ?? job;
    throw error;
  }
  await pushPaymentChanged(intent.id);
  return tipped;
}

/**
 * `payment_intent.succeeded` of a tip (metadata.tipForJob): a poster who confirmed on the card
 * step and left before the app sent the tip again still has it settled. False when the tip is
 * unknown or not this intent's.
 */
export async function settleTipOfIntent(intent: Stripe.PaymentIntent): Promise<boolean> {
  const jobId = intent.metadata.tipForJob ?? '';
  const [{ Item: tip }, job] = await Promise.all([db.send(new GetCommand({ TableName: tableName(), Key: keys.tip(jobId), ConsistentRead: true })), getJob(jobId)]);
  if (!tip || tip.paymentIntentId !== intent.id || tip.status !== 'pending' || !job?.workerId) return false;
  const worker = await getProfile(job.workerId);
  if (!worker?.stripeAccountId) return false;
  const current = await (await stripe()).paymentIntents.retrieve(intent.id, { expand: WITH_FEE });
  if (current.status !== 'succeeded') return false;
  await settleTip(job, current, worker.stripeAccountId);
  return true;
}
