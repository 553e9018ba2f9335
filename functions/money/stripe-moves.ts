import type Stripe from 'stripe';
import { estimatedCardFeeCents } from '../../shared/money.js';
import { stripe } from '../lib/stripe.js';
import { isStripeError } from '../lib/stripe-errors.js';

/**
 * The one module that calls Stripe's money APIs (an ESLint rule keeps it so): a transfer, a
 * refund, a transfer reversal, a PaymentIntent's cancellation, a tip's off-session charge, an
 * Instant Payout — and the job payment's PaymentIntent, which the poster's card step confirms.
 * The executor (executor.ts) makes every move of a decision through `makeMove`, after the
 * decision is written, with a key of the decision: a move made again (a retry, the schedule,
 * Stripe's webhook) is the same move.
 */

/** Which decision and which of its calls a move is: its idempotency key and the metadata Stripe keeps on the object. */
export interface MoveTag {
  decision: string;
  call: string;
  jobId?: string;
  /**
   * How often Stripe refused this call for good before: Stripe keeps a refusal under its
   * idempotency key, so the call asked again once the cause is gone (the account fixed) needs a
   * new one. A call that failed otherwise keeps its key: Stripe may have made it.
   */
  refusals?: number;
}

/** The call's idempotency key: the decision's and the call's, with the refusals it had (each a new request to Stripe). */
const keyOf = (tag: MoveTag, call = tag.call) => `${tag.decision}:${call}${tag.refusals ? `:${tag.refusals}` : ''}`;

export type StripeMove =
  /** To a worker's connected account; funded by the charge it names, so Stripe itself refuses a transfer beyond what is left of it. */
  | { kind: 'transfer'; amount: number; destination: string; transferGroup: string; sourceCharge?: string; metadata?: Record<string, string> }
  /** Back to the poster's card: the rest of the charge when no amount is given. */
  | { kind: 'refund'; paymentIntent: string; amount?: number; reason: string }
  | { kind: 'reversal'; transfer: string; amount: number }
  /** An unpaid draft's PaymentIntent: cancelled, or refunded should it have succeeded meanwhile. */
  | { kind: 'void'; paymentIntent: string }
  /** A tip: the card the job's payment saved, charged without the poster present. */
  | { kind: 'tipCharge'; amount: number; customer: string; paymentMethod: string; description: string; jobId: string; posterId: string }
  /** A higher price's difference (issue 45): the same card, charged the same way; `purpose` names what it is for (a price change, an offer). */
  | { kind: 'topUpCharge'; amount: number; customer: string; paymentMethod: string; description: string; jobId: string; posterId: string; purpose: Record<string, string> }
  /** A top-up charged before (its card step since done): read as it is, so the same decision is not charged twice. */
  | { kind: 'topUpIntent'; paymentIntent: string }
  /** An Instant Payout of a worker's connected balance to their debit card. */
  | { kind: 'payout'; account: string; amount: number; workerId: string; requestKey: string };

export type MoveResult =
  | { kind: 'transfer'; id: string; amount: number }
  | { kind: 'refund'; id: string; amount: number }
  | { kind: 'reversal'; id: string; amount: number }
  | { kind: 'void'; canceled: true }
  /** The draft's payment succeeded before the cancellation reached it: refunded in full. */
  | { kind: 'void'; canceled: false; charged: { amount: number; cardFee: number }; refund: { id: string; amount: number } }
  | { kind: 'tipCharge'; intent: ChargedIntent }
  | { kind: 'topUp'; intent: ChargedIntent }
  | { kind: 'payout'; id: string; amount: number; fee: number };

/** A PaymentIntent as the product needs it: where it is, and its charge's card fee once it succeeded. */
export interface ChargedIntent {
  id: string;
  status: Stripe.PaymentIntent.Status;
  amount: number;
  description: string;
  clientSecret: string;
  chargeId?: string;
  cardFee: number;
}

/** The PaymentIntent with its charge's balance transaction: the card fee in the same call. */
const WITH_FEE = ['latest_charge.balance_transaction'];

export function chargedIntent(intent: Stripe.PaymentIntent): ChargedIntent {
  const charge = intent.latest_charge;
  const chargeId = typeof charge === 'string' ? charge : charge?.id;
  const transaction = charge && typeof charge === 'object' ? charge.balance_transaction : null;
  return {
    id: intent.id,
    status: intent.status,
    amount: intent.amount,
    description: intent.description ?? '',
    clientSecret: intent.client_secret ?? '',
    ...(chargeId ? { chargeId } : {}),
    cardFee: transaction && typeof transaction === 'object' ? transaction.fee : estimatedCardFeeCents(intent.amount),
  };
}

export async function retrieveIntent(paymentIntentId: string): Promise<ChargedIntent> {
  return chargedIntent(await (await stripe()).paymentIntents.retrieve(paymentIntentId, { expand: WITH_FEE }));
}

/**
 * Stripe keeps an idempotency key for 24 hours: a decision older than this (the schedule retries
 * one that waited out an outage) looks for its objects by the metadata they carry before making
 * one, so a move is never made twice whatever the wait.
 */
const KEY_LIFETIME_MS = 23 * 3600 * 1000;

const metadataOf = (tag: MoveTag): Record<string, string> => ({ decision: tag.decision, call: tag.call, ...(tag.jobId ? { jobId: tag.jobId } : {}) });
const madeBy = (object: { metadata?: Stripe.Metadata | null }, tag: MoveTag) => object.metadata?.decision === tag.decision && object.metadata?.call === tag.call;

/** Makes one move of a decision taken at `decidedAt` (ISO), answering what Stripe did. */
export async function makeMove(move: StripeMove, tag: MoveTag, decidedAt: string): Promise<MoveResult> {
  const client = await stripe();
  const options = { idempotencyKey: keyOf(tag) };
  const keyExpired = Date.now() - Date.parse(decidedAt) > KEY_LIFETIME_MS;
  switch (move.kind) {
    case 'transfer': {
      const made = keyExpired ? (await client.transfers.list({ transfer_group: move.transferGroup, limit: 100 })).data.find((transfer) => madeBy(transfer, tag)) : undefined;
      const transfer =
        made ??
        (await client.transfers.create(
          {
            amount: move.amount,
            currency: 'usd',
            destination: move.destination,
            transfer_group: move.transferGroup,
            ...(move.sourceCharge ? { source_transaction: move.sourceCharge } : {}),
            metadata: { ...move.metadata, ...metadataOf(tag) },
          },
          options,
        ));
      return { kind: 'transfer', id: transfer.id, amount: transfer.amount };
    }
    case 'refund':
      return { kind: 'refund', ...(await refundOnce(client, move, tag, keyExpired)) };
    case 'reversal': {
      const made = keyExpired ? (await client.transfers.listReversals(move.transfer, { limit: 100 })).data.find((reversal) => madeBy(reversal, tag)) : undefined;
      const reversal = made ?? (await client.transfers.createReversal(move.transfer, { amount: move.amount, metadata: metadataOf(tag) }, options));
      return { kind: 'reversal', id: reversal.id, amount: reversal.amount };
    }
    case 'void':
      return voidIntent(client, move.paymentIntent, tag, keyExpired);
    case 'tipCharge':
      return { kind: 'tipCharge', intent: await chargeSavedCard(client, move, { tipForJob: move.jobId, posterId: move.posterId }, tag) };
    case 'topUpCharge':
      return { kind: 'topUp', intent: await chargeSavedCard(client, move, { topUpForJob: move.jobId, posterId: move.posterId, ...move.purpose }, tag) };
    case 'topUpIntent':
      return { kind: 'topUp', intent: chargedIntent(await client.paymentIntents.retrieve(move.paymentIntent, { expand: WITH_FEE })) };
    case 'payout': {
      const made = keyExpired
        ? (await client.payouts.list({ limit: 100 }, { stripeAccount: move.account })).data.find((payout) => madeBy(payout, tag))
        : undefined;
      const payout =
        made ??
        (await client.payouts.create(
          { amount: move.amount, currency: 'usd', method: 'instant', metadata: { ...metadataOf(tag), workerId: move.workerId, requestKey: move.requestKey }, expand: ['balance_transaction'] },
          { ...options, stripeAccount: move.account },
        ));
      const transaction = payout.balance_transaction;
      return { kind: 'payout', id: payout.id, amount: payout.amount, fee: transaction && typeof transaction === 'object' ? transaction.fee : 0 };
    }
  }
}

async function refundOnce(client: Stripe, move: Extract<StripeMove, { kind: 'refund' }>, tag: MoveTag, keyExpired: boolean): Promise<{ id: string; amount: number }> {
  const made = keyExpired ? (await client.refunds.list({ payment_intent: move.paymentIntent, limit: 100 })).data.find((refund) => madeBy(refund, tag)) : undefined;
  const refund =
    made ??
    (await client.refunds.create(
      {
        payment_intent: move.paymentIntent,
        ...(move.amount !== undefined ? { amount: move.amount } : {}),
        reason: 'requested_by_customer',
        metadata: { ...metadataOf(tag), reason: move.reason.slice(0, 500) },
      },
      { idempotencyKey: keyOf(tag) },
    ));
  return { id: refund.id, amount: refund.amount };
}

/**
 * Cancels an unpaid draft's PaymentIntent. A card step finished just before (the poster paid
 * as they deleted, or after the draft expired) leaves it succeeded: then the payment is refunded
 * in full, so a gone draft never keeps the poster's money.
 */
async function voidIntent(client: Stripe, paymentIntentId: string, tag: MoveTag, keyExpired: boolean): Promise<MoveResult> {
  let intent = await client.paymentIntents.retrieve(paymentIntentId, { expand: WITH_FEE });
  if (intent.status !== 'succeeded' && intent.status !== 'canceled') {
    try {
      intent = await client.paymentIntents.cancel(paymentIntentId, { cancellation_reason: 'abandoned', expand: WITH_FEE }, { idempotencyKey: keyOf(tag, 'cancel') });
    } catch (error) {
      // It succeeded between the read and the cancellation: refunded below.
      if (!(isStripeError(error) && error.code === 'payment_intent_unexpected_state')) throw error;
      intent = await client.paymentIntents.retrieve(paymentIntentId, { expand: WITH_FEE });
    }
  }
  if (intent.status !== 'succeeded') return { kind: 'void', canceled: true };
  const paid = chargedIntent(intent);
  const refund = await refundOnce(client, { kind: 'refund', paymentIntent: paymentIntentId, reason: 'The draft was removed before its payment completed' }, { ...tag, call: `${tag.call}-refund` }, keyExpired);
  return { kind: 'void', canceled: false, charged: { amount: paid.amount, cardFee: paid.cardFee }, refund };
}

/**
 * A charge of the card the job's payment saved, off-session: a tip, a higher price's
 * difference. A card the bank will not charge without the poster (3-D Secure, a decline)
 * answers with the intent as it is, for the card step; its id is kept (the tip's claim, the
 * price change), so a later attempt reads the same intent instead of charging again.
 */
async function chargeSavedCard(
  client: Stripe,
  move: { amount: number; customer: string; paymentMethod: string; description: string; jobId: string },
  metadata: Record<string, string>,
  tag: MoveTag,
): Promise<ChargedIntent> {
  try {
    const intent = await client.paymentIntents.create(
      {
        amount: move.amount,
        currency: 'usd',
        customer: move.customer,
        payment_method: move.paymentMethod,
        off_session: true,
        confirm: true,
        description: move.description.slice(0, 1000),
        metadata: { ...metadataOf(tag), ...metadata },
        transfer_group: move.jobId,
        expand: WITH_FEE,
      },
      { idempotencyKey: keyOf(tag) },
    );
    return chargedIntent(intent);
  } catch (error) {
    const failed = (error as Partial<Stripe.errors.StripeCardError>).payment_intent;
    if (!(isStripeError(error) && error.type === 'StripeCardError' && failed)) throw error;
    return chargedIntent(failed);
  }
}

/** The PaymentIntent of a job's payment (pay to post): nothing moves until the poster's card step confirms it. */
export async function createJobPaymentIntent(params: Stripe.PaymentIntentCreateParams, idempotencyKey: string): Promise<Stripe.PaymentIntent> {
  return (await stripe()).paymentIntents.create(params, { idempotencyKey });
}
