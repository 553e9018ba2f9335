import type { TipState } from '../../shared/job-process.js';
import { ledgerAccount } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { formatUsdAmount } from '../../shared/money.js';
import { tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { pushPaymentChanged } from './admin-live.js';
import { getJob } from '../jobs/jobs.js';
import { jobScope, movementPut } from './ledger.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { paymentRecordPut } from './payment-records.js';
import { movementIdOf, resultOf, type MoneyDecision, type Plan } from './decision.js';

/**
 * The plans of a tip's money (shared/job-process.ts TIP_PROCESS): its charge, then — once the
 * charge succeeded — its transfer to the worker or, when the job's money was reversed or its
 * worker left meanwhile, its refund to the poster. The tip's state is kept on its claim
 * (keys.tip) and mirrored on the job (`tipState`), where a reversal and a delete read it.
 */

export interface TipContext {
  posterId: string;
  workerId: string;
  title: string;
  amount: number;
}

/** Once charged: the charge's intent and card fee, which the platform bears. */
export interface ChargedTipContext extends TipContext {
  paymentIntentId: string;
  cardFee: number;
}

export interface TipRefundContext extends ChargedTipContext {
  /** Why the tip went back, as the poster is told. */
  why: string;
}

/** The tip claim's state, on condition that this decision still owns it. */
function tipState(jobId: string, decision: MoneyDecision<unknown>, status: TipState, set: Record<string, unknown> = {}): TransactItem {
  const fields = Object.entries(set);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.tip(jobId),
      UpdateExpression: `SET #status = :status${fields.map(([name]) => `, #${name} = :${name}`).join('')}`,
      ConditionExpression: 'decisionId = :decision',
      ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(fields.map(([name]) => [`#${name}`, name])) },
      ExpressionAttributeValues: { ':status': status, ':decision': decision.id, ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])) },
    },
  };
}

/** The job's mirror of the tip's state (and what it shows), when the job is still there. */
async function jobTipState(jobId: string, status: TipState, set: Record<string, unknown> = {}): Promise<TransactItem[]> {
  if (!(await getJob(jobId, { consistentRead: true }))) return [];
  const fields = Object.entries({ tipState: status, ...set });
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.job(jobId),
        UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
      },
    },
  ];
}

/** The tip's row in the payments table (kind tip: platform fee 0, its worker from the start). */
function tipPaymentRow(jobId: string, context: ChargedTipContext, fields: { status: 'succeeded' | 'refunded'; transferId?: string; refundReason?: string }, at: string): TransactItem {
  return paymentRecordPut({
    kind: 'tip',
    id: context.paymentIntentId,
    jobId,
    jobTitle: context.title,
    posterId: context.posterId,
    workerId: context.workerId,
    amount: context.amount,
    platformFee: 0,
    stripeFee: context.cardFee,
    stripePaymentIntentId: context.paymentIntentId,
    status: fields.status,
    transferId: fields.transferId ?? null,
    ...(fields.refundReason ? { refundedAt: at, refundedAmount: context.amount, refundReason: fields.refundReason } : {}),
    createdAt: at,
  });
}

/** The tip's charge into the job's escrow, and its card fee, which the platform bears (the worker gets the whole tip). */
function tipChargeMovements(jobId: string, decision: MoneyDecision<ChargedTipContext>, at: string): TransactItem[] {
  const { context } = decision;
  const scope = jobScope(jobId);
  return [
    ...movementPut({ scope, movementId: movementIdOf(decision, 'tip_charge'), kind: 'tip_charge', from: ledgerAccount.card(context.posterId), to: ledgerAccount.escrow(jobId), amount: context.amount, stripe: { kind: 'payment_intent', id: context.paymentIntentId } }, at),
    ...movementPut({ scope, movementId: movementIdOf(decision, 'tip_card_fee'), kind: 'card_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: context.cardFee, settled: true }, at),
  ];
}

/** Settled: the charge's intent on the claim — `charged`, or `awaiting_card` while the bank wants the poster. */
export const tipChargePlan: Plan<TipContext> = {
  async settle(decision, results) {
    const { intent } = resultOf(results, 'charge', 'tipCharge');
    const jobId = decision.jobId ?? '';
    const status: TipState = intent.status === 'succeeded' ? 'charged' : 'awaiting_card';
    return [tipState(jobId, decision, status, { paymentIntentId: intent.id }), ...(await jobTipState(jobId, status))];
  },
};

/** Settled: the tip on the job for both parties, in the payments table and the ledger; the worker told. */
export const tipTransferPlan: Plan<ChargedTipContext> = {
  async settle(decision, results) {
    const transfer = resultOf(results, 'transfer', 'transfer');
    const { context } = decision;
    const jobId = decision.jobId ?? '';
    const at = new Date().toISOString();
    return [
      tipState(jobId, decision, 'tipped', { transferId: transfer.id, succeededAt: at }),
      ...(await jobTipState(jobId, 'tipped', { tip: context.amount, tippedAt: at })),
      tipPaymentRow(jobId, context, { status: 'succeeded', transferId: transfer.id }, at),
      ...tipChargeMovements(jobId, decision, at),
      ...movementPut({ scope: jobScope(jobId), movementId: movementIdOf(decision, 'tip_transfer'), kind: 'tip_transfer', from: ledgerAccount.escrow(jobId), to: ledgerAccount.worker(context.workerId), amount: transfer.amount, stripe: { kind: 'transfer', id: transfer.id } }, at),
      ...notificationWrites(
        notificationItem({ userId: context.workerId, jobId, type: 'payment_released', title: MSG.tips.receivedTitle, message: MSG.tips.receivedMessage((context.amount / 100).toFixed(2), context.title), metadata: { jobTitle: context.title } }),
      ),
    ];
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

/** Settled: the tip back on the poster's card, in the payments table (refunded) and the ledger; the poster told why. */
export const tipRefundPlan: Plan<TipRefundContext> = {
  async settle(decision, results) {
    const refund = resultOf(results, 'refund', 'refund');
    const { context } = decision;
    const jobId = decision.jobId ?? '';
    const at = new Date().toISOString();
    return [
      tipState(jobId, decision, 'refunded', { refundId: refund.id }),
      ...(await jobTipState(jobId, 'refunded')),
      tipPaymentRow(jobId, context, { status: 'refunded', refundReason: context.why }, at),
      ...tipChargeMovements(jobId, decision, at),
      ...movementPut({ scope: jobScope(jobId), movementId: movementIdOf(decision, 'tip_refund'), kind: 'tip_refund', from: ledgerAccount.escrow(jobId), to: ledgerAccount.card(context.posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id } }, at),
      ...notificationWrites(
        notificationItem({
          userId: context.posterId,
          jobId,
          type: 'payment_refunded',
          title: MSG.tips.refundedTitle,
          message: MSG.tips.refundedMessage(formatUsdAmount(refund.amount), context.title, context.why),
          metadata: { jobTitle: context.title },
        }),
      ),
    ];
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};
