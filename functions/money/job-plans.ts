import { MSG } from '../../shared/messages.js';
import type { MoneyState } from '../../shared/job-process.js';
import { balances, ledgerAccount } from '../../shared/ledger.js';
import { formatCents, formatUsdAmount } from '../../shared/money.js';
import { OFFER_TEXTS } from '../../shared/offers.js';
import { PRICE_CHANGE_TEXTS } from '../../shared/price-changes.js';
import { applicationsOfJob, assignmentWrites, pendingApplication } from '../applications/application-items.js';
import { tableName } from '../lib/db.js';
import { badRequest, conflict } from '../lib/errors.js';
import type { TransactItem } from '../lib/transactions.js';
import { JOB_EVENT } from '../routes.js';
import { keys } from '../table.js';
import { pushPaymentChanged } from './admin-live.js';
import { disputeHandedBack, disputeResolvedWrites, type DisputeResolution } from '../disputes/dispute-resolution.js';
import { jobEvent } from '../jobs/job-events.js';
import { jobTransition, type TransitionGuard } from '../jobs/job-transitions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { jobScope, movementPut, movementsOf } from './ledger.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { paymentRecordPut } from './payment-records.js';
import { movementIdOf, resultOf, type MoneyDecision, type Plan } from './decision.js';
import type { ChargedIntent, MoveResult } from './stripe-moves.js';
import { intentOfCall, resultsOn, sumOf } from './job-charges.js';

/**
 * The plans of the job's own money transitions (shared/job-process.ts): what each writes when
 * its Stripe calls are made (its settlement) and, where Stripe can refuse its first call for
 * good, how the money is handed back. The executor (executor.ts) runs them.
 */

/** What a decision cleared on the job that handing the money back puts back (the auto-release's time and pause). */
export type JobRestore = Partial<Pick<JobItem, 'autoReleaseAt' | 'autoReleasePausedAt' | 'autoReleasePauseReason' | 'pausedReleaseAt'>>;

async function jobOf(decision: MoneyDecision<unknown>): Promise<JobItem> {
  const job = await getJob(decision.jobId ?? '', { consistentRead: true, includeDeleting: true });
  // A job whose money is pending cannot be deleted (shared/job-process.ts): it is there.
  if (!job) throw new Error(`the job of decision ${decision.id} is gone`);
  return job;
}

/** A settlement's condition: the job's money is still this decision's. */
const ofDecision = (job: JobItem, decision: MoneyDecision<unknown>): TransitionGuard => ({
  by: { posterId: job.posterId },
  condition: { expression: 'moneyDecisionId = :decision', values: { ':decision': decision.id } },
});

/** Pending -> the money state the decision started from, with what it cleared. */
function handBack(job: JobItem, decision: MoneyDecision<unknown>, to: MoneyState, restore: JobRestore = {}): TransactItem {
  const restored = Object.entries(restore).filter(([, value]) => value !== undefined);
  return {
    Update: {
      TableName: tableName(),
      Key: keys.job(job.id),
      UpdateExpression: `SET #money = :to${restored.map(([name]) => `, #${name} = :${name}`).join('')} REMOVE moneyDecisionId`,
      ConditionExpression: 'moneyDecisionId = :decision',
      ExpressionAttributeNames: { '#money': 'moneyState', ...Object.fromEntries(restored.map(([name]) => [`#${name}`, name])) },
      ExpressionAttributeValues: { ':to': to, ':decision': decision.id, ...Object.fromEntries(restored.map(([name, value]) => [`:${name}`, value])) },
    },
  };
}

/**
 * The payment row's change for a refund of `amount`, with its reason (the admin's payments table
 * shows it): `refunded` once nothing of the charge is left; a split's row also names the transfer
 * of the worker's part.
 */
function paymentRowRefunded(paymentIntentId: string, amount: number, reason: string, options: { whole: boolean; transfer?: { id: string; workerId: string } }): TransactItem {
  const { whole, transfer } = options;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.payment(paymentIntentId),
      UpdateExpression: `SET refundedAt = :now, refundedAmount = if_not_exists(refundedAmount, :zero) + :amount, refundReason = :reason${whole ? ', #status = :refunded' : ''}${transfer ? ', transferId = :transfer, workerId = :worker' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(whole ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: {
        ':now': new Date().toISOString(),
        ':zero': 0,
        ':amount': amount,
        ':reason': reason,
        ...(whole ? { ':refunded': 'refunded' } : {}),
        ...(transfer ? { ':transfer': transfer.id, ':worker': transfer.workerId } : {}),
      },
    },
  };
}

/** The ledger's movement of a decision's refund: from the job's escrow back to the poster's card. */
const refundMovement = (decision: MoneyDecision<unknown>, jobId: string, posterId: string, refund: { id: string; amount: number }, at?: string, call = 'refund') =>
  movementPut({ scope: jobScope(jobId), movementId: movementIdOf(decision, call), kind: 'refund', from: ledgerAccount.escrow(jobId), to: ledgerAccount.card(posterId), amount: refund.amount, stripe: { kind: 'refund', id: refund.id } }, at);

/** A transfer of the decision's call `call` in the ledger: from the job's escrow to the worker. */
const transferMovement = (decision: MoneyDecision<unknown>, jobId: string, workerId: string, call: string, transfer: { id: string; amount: number }, at: string) =>
  movementPut({ scope: jobScope(jobId), movementId: movementIdOf(decision, call), kind: 'transfer', from: ledgerAccount.escrow(jobId), to: ledgerAccount.worker(workerId), amount: transfer.amount, stripe: { kind: 'transfer', id: transfer.id } }, at);

/** The job's record of its transfers: the first (the payment's), and every one on a job of several charges. */
const transferFields = (transfers: ReadonlyArray<{ result: { id: string } }>): Pick<JobItem, 'transferId' | 'transferIds'> => ({
  transferId: transfers[0]?.result.id,
  transferIds: transfers.length > 1 ? transfers.map(({ result }) => result.id) : undefined,
});

/** A payment row's transfer (the admin's payments table shows it released to the worker). */
const paymentRowTransferred = (paymentIntentId: string, transferId: string, workerId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.payment(paymentIntentId),
    UpdateExpression: 'SET transferId = :transfer, workerId = :worker',
    ExpressionAttributeValues: { ':transfer': transferId, ':worker': workerId },
  },
});

/** Every refund of a decision in the ledger and on its charge's payment row (`whole`: nothing of the charge is left). */
function refundsRecorded(decision: MoneyDecision<{ posterId: string; paymentIntentId: string; charges?: string[] }>, jobId: string, refunds: ReturnType<typeof resultsOn<'refund'>>, reason: string, whole: boolean, at?: string): TransactItem[] {
  return refunds.flatMap(({ call, index, result }) => [
    ...refundMovement(decision, jobId, decision.context.posterId, result, at, call),
    ...(result.amount > 0 ? [paymentRowRefunded(intentOfCall(decision.context, index), result.amount, reason, { whole })] : []),
  ]);
}

const notices = (userIds: ReadonlyArray<string | undefined>, notice: Omit<Parameters<typeof notificationItem>[0], 'userId'>): TransactItem[] =>
  [...new Set(userIds.filter((userId): userId is string => Boolean(userId)))].flatMap((userId) => notificationWrites(notificationItem({ ...notice, userId })));

/** A resolution's writes when the decision carries one, with what the money did. */
const resolved = (dispute: DisputeResolution | undefined, decision: MoneyDecision<unknown>, outcome: Parameters<typeof disputeResolvedWrites>[1]) =>
  dispute ? disputeResolvedWrites(dispute, outcome, decision.id).items : [];
/** A resolved dispute is one fewer the auto-release waits for. */
const disputeCounters = (dispute: DisputeResolution | undefined): Record<string, number> => (dispute ? { openDisputes: -1 } : {});

// ---------------------------------------------------------------- release

export interface ReleaseContext {
  posterId: string;
  workerId: string;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  /** The transfer: the payment, or what is held less the fee after a partial refund (shared/money.ts releasableAmount). */
  amount: number;
  platformFee: number;
  automatic?: boolean;
  restore: JobRestore;
  dispute?: DisputeResolution;
}

/** Settled: `paid`, released, with the transfer and the platform's fee in the ledger; the worker told (and the poster, when it was automatic). */
export const releasePlan: Plan<ReleaseContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const transfers = resultsOn(results, 'transfer', 'transfer');
    const transferred = sumOf(transfers);
    const job = await jobOf(decision);
    const releasedAt = new Date().toISOString();
    const { updated, update } = jobTransition(
      job,
      'release',
      { ...transferFields(transfers), transferredAmount: transferred, autoReleaseAt: undefined, autoReleaseBlockedAt: undefined, autoReleaseBlockedReason: undefined, autoReleaseBlockedFor: undefined, releasedAt, moneyDecisionId: undefined },
      ofDecision(job, decision),
      'settle',
      disputeCounters(context.dispute),
    );
    const amount = formatUsdAmount(transferred);
    const scope = jobScope(job.id);
    return [
      { Update: update },
      { Update: { TableName: tableName(), Key: keys.profile(context.workerId), UpdateExpression: 'ADD completedJobs :one', ExpressionAttributeValues: { ':one': 1 } } },
      ...transfers.map(({ index, result }) => paymentRowTransferred(intentOfCall(context, index), result.id, context.workerId)),
      ...transfers.flatMap(({ call, result }) => transferMovement(decision, job.id, context.workerId, call, result, releasedAt)),
      ...movementPut({ scope, movementId: movementIdOf(decision, 'platform_fee'), kind: 'platform_fee', from: ledgerAccount.escrow(job.id), to: ledgerAccount.revenue(), amount: context.platformFee, settled: true }, releasedAt),
      jobEvent(JOB_EVENT.updated, updated, 'paid'),
      ...notices([context.workerId], {
        jobId: job.id,
        type: 'payment_released',
        title: context.automatic ? MSG.payments.autoReleasedTitle : 'Payment released',
        message: context.automatic ? MSG.payments.autoReleasedToWorker(amount, job.title) : `The poster released ${amount} USD for "${job.title}". The funds arrive within 1-2 business days.`,
        metadata: { jobTitle: job.title },
      }),
      ...(context.automatic
        ? notices([job.posterId], { jobId: job.id, type: 'payment_released', title: MSG.payments.autoReleasedTitle, message: MSG.payments.autoReleasedToPoster(amount, job.title), metadata: { jobTitle: job.title } })
        : []),
      ...resolved(context.dispute, decision, { decision: 'release', toWorker: transferred, refunded: 0 }),
    ];
  },
  async rollBack(decision) {
    const job = await jobOf(decision);
    const { dispute, restore } = decision.context;
    return { items: [handBack(job, decision, 'held', restore), ...(dispute ? [disputeHandedBack(dispute, decision.id)] : [])], answer: badRequest(MSG.payments.releaseRefused) };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- refund

export interface RefundContext {
  posterId: string;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  reason: string;
  /** The job is being deleted: its ledger and payment row settle, it keeps no money state. */
  deleting?: boolean;
  /** Who is told the money went back (the spec's tone: the poster, and the worker whose job it was). */
  tell: string[];
  dispute?: DisputeResolution;
}

/**
 * Settled: refunded (what was left of the charge), the payment row and the ledger. Not handed
 * back when Stripe refuses: the money was promised back (the job is cancelled or going), so the
 * decision waits, shown and alarmed, until the admin sees why (a chargeback under way).
 */
export const refundPlan: Plan<RefundContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const refunds = resultsOn(results, 'refund', 'refund');
    const refunded = sumOf(refunds);
    const job = await getJob(decision.jobId ?? '', { consistentRead: true, includeDeleting: true });
    const settle = job && !job.deletingAt && !context.deleting ? jobTransition(job, 'refund', { moneyDecisionId: undefined }, ofDecision(job, decision), 'settle', disputeCounters(context.dispute)) : undefined;
    const jobId = decision.jobId ?? '';
    return [
      ...(settle ? [{ Update: settle.update }] : []),
      ...refundsRecorded(decision, jobId, refunds, context.reason, true),
      // A resolution tells both parties itself, with the amounts.
      ...(context.dispute
        ? resolved(context.dispute, decision, { decision: 'refund', toWorker: 0, refunded })
        : notices(context.tell, {
            jobId: context.deleting ? null : jobId,
            type: 'payment_refunded',
            title: MSG.payments.refundedTitle,
            message: MSG.payments.refundedMessage(context.title, formatUsdAmount(refunded), context.reason),
            metadata: { jobTitle: context.title, jobId },
          })),
    ];
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- split

export interface SplitContext {
  posterId: string;
  /** The dispute's worker, paid their part whether or not they hold the job now. */
  payeeId: string;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  toWorker: number;
  refundAmount: number;
  /** The payee no longer holds the job: it is cancelled (splitWithFormerWorker), its current worker told. */
  formerWorker: boolean;
  currentWorkerId?: string;
  restore: JobRestore;
  dispute: DisputeResolution;
}

/** What a split's refund says, on Stripe's refund and the payment row. */
export const SPLIT_REASON = 'Dispute resolved with a split';

export const splitPlan: Plan<SplitContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const refunds = resultsOn(results, 'refund', 'refund');
    const transfers = resultsOn(results, 'transfer', 'transfer');
    const [refunded, transferred] = [sumOf(refunds), sumOf(transfers)];
    const job = await jobOf(decision);
    const at = new Date().toISOString();
    const { updated, update } = jobTransition(
      job,
      context.formerWorker ? 'splitWithFormerWorker' : 'split',
      {
        ...transferFields(transfers),
        transferredAmount: transferred,
        releasedAt: at,
        splitToWorker: transferred,
        splitRefunded: refunded,
        moneyDecisionId: undefined,
        ...(context.formerWorker ? { workerId: undefined } : {}),
      },
      ofDecision(job, decision),
      'settle',
      disputeCounters(context.dispute),
    );
    // One update of each charge's payment row (a transaction may not write an item twice): what it refunded, what it funded.
    const charges = [...new Set([...refunds, ...transfers].map(({ index }) => index))];
    const rows = charges.map((index) => {
      const refund = refunds.find((part) => part.index === index)?.result;
      const transfer = transfers.find((part) => part.index === index)?.result;
      const paymentIntentId = intentOfCall(context, index);
      return refund ? paymentRowRefunded(paymentIntentId, refund.amount, SPLIT_REASON, { whole: false, ...(transfer ? { transfer: { id: transfer.id, workerId: context.payeeId } } : {}) }) : paymentRowTransferred(paymentIntentId, transfer!.id, context.payeeId);
    });
    return [
      { Update: update },
      ...refunds.flatMap(({ call, result }) => refundMovement(decision, job.id, context.posterId, result, at, call)),
      ...transfers.flatMap(({ call, result }) => transferMovement(decision, job.id, context.payeeId, call, result, at)),
      ...rows,
      jobEvent(JOB_EVENT.updated, updated, context.formerWorker ? 'cancelled' : 'paid'),
      ...resolved(context.dispute, decision, { decision: 'split', toWorker: transferred, refunded }),
      ...(context.formerWorker
        ? notices([context.currentWorkerId], { jobId: job.id, type: 'job_moderated', title: MSG.disputes.splitWithFormerWorkerTitle, message: MSG.disputes.splitWithFormerWorkerMessage(job.title), metadata: { jobTitle: job.title } })
        : []),
    ];
  },
  async rollBack(decision) {
    const job = await jobOf(decision);
    return {
      items: [handBack(job, decision, 'held', decision.context.restore), disputeHandedBack(decision.context.dispute, decision.id)],
      answer: conflict(MSG.disputes.splitRefused),
    };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- reversal

export interface ReverseContext {
  posterId: string;
  workerId: string;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  transferId: string;
  /** What the release transferred, and what the admin confirmed the worker's balance returns of it. */
  transferred: number;
  recover: number;
  reason: string;
}

/**
 * Settled: `cancelled`, reversed — what the worker's balance returned, what it could not (the
 * worker's debt, the platform's loss), the fee returned and the poster refunded, each in the
 * ledger; both parties told what moved only now that it has. Handed back, with the admin told
 * to look again, when Stripe refuses the reversal (the worker cashed out since the preview).
 */
export const reversePlan: Plan<ReverseContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const reversals = resultsOn(results, 'reversal', 'reversal');
    const refunds = resultsOn(results, 'refund', 'refund');
    const refunded = sumOf(refunds);
    const job = await jobOf(decision);
    const recovered = sumOf(reversals);
    const unrecovered = context.transferred - recovered;
    const { updated, update } = jobTransition(
      job,
      'reverse',
      { ...(reversals[0] ? { reversalId: reversals[0].result.id } : {}), reversal: { recovered, unrecovered }, moneyDecisionId: undefined },
      ofDecision(job, decision),
      'settle',
    );
    const at = new Date().toISOString();
    const scope = jobScope(job.id);
    const escrow = ledgerAccount.escrow(job.id);
    // The escrow must hold the refund: what the worker returned (or owes) and the platform's fee
    // fill it. Should it already hold some (a refund in Stripe after release, covered by the
    // platform and so not refunded again here), the platform's cover comes back to it instead.
    const held = balances(await movementsOf(scope)).get(escrow) ?? 0;
    const lacking = refunded - held - recovered - unrecovered;
    return [
      { Update: update },
      ...reversals.flatMap(({ call, result }) =>
        movementPut({ scope, movementId: movementIdOf(decision, call), kind: 'reversal', from: ledgerAccount.worker(context.workerId), to: escrow, amount: result.amount, stripe: { kind: 'transfer_reversal', id: result.id }, settled: true }, at),
      ),
      ...movementPut({ scope, movementId: movementIdOf(decision, 'unrecovered'), kind: 'unrecovered', from: ledgerAccount.worker(context.workerId), to: escrow, amount: unrecovered, settled: true }, at),
      ...movementPut({ scope, movementId: movementIdOf(decision, 'fee_return'), kind: 'fee_return', from: ledgerAccount.revenue(), to: escrow, amount: Math.max(0, lacking), settled: true }, at),
      ...movementPut({ scope, movementId: movementIdOf(decision, 'loss_recovered'), kind: 'loss_recovered', from: escrow, to: ledgerAccount.revenue(), amount: Math.max(0, -lacking), settled: true }, at),
      ...refundsRecorded(decision, job.id, refunds, context.reason, true, at),
      jobEvent(JOB_EVENT.updated, updated, 'cancelled'),
      ...notices([context.workerId], {
        jobId: job.id,
        type: 'payment_reversed',
        title: MSG.payments.reversedTitle,
        message: MSG.payments.reversedToWorker(job.title, formatUsdAmount(recovered), formatUsdAmount(unrecovered), context.reason),
        metadata: { jobTitle: job.title },
      }),
      ...notices([context.posterId], {
        jobId: job.id,
        type: 'payment_refunded',
        title: MSG.payments.reversedTitle,
        message: MSG.payments.reversedMessage(job.title, formatUsdAmount(context.transferred), formatUsdAmount(refunded), context.reason),
        metadata: { jobTitle: job.title },
      }),
    ];
  },
  async rollBack(decision, refusal) {
    const job = await jobOf(decision);
    const answer = refusal.code === 'balance_insufficient' ? conflict(MSG.payments.reversalBalanceChanged) : conflict(MSG.payments.reversalRefused);
    return { items: [handBack(job, decision, 'released')], answer };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- a draft's payment

export interface VoidContext {
  posterId: string;
  title: string;
  paymentIntentId: string;
}

/**
 * An unpaid draft removed (its poster's delete, the admin's, its expiry, an account deletion):
 * its PaymentIntent cancelled, which settles nothing. A card step that finished as it went left
 * a payment: refunded in full by the same call, and in the ledger and the payments table with
 * the poster told, so a gone draft never keeps anyone's money.
 */
export const voidPlan: Plan<VoidContext> = {
  async settle(decision, results) {
    const result = resultOf(results, 'void', 'void');
    if (result.canceled) return [];
    const { context } = decision;
    const jobId = decision.jobId ?? '';
    const scope = jobScope(jobId);
    const at = new Date().toISOString();
    const reason = MSG.payments.draftRefundReason;
    return [
      ...movementPut({ scope, movementId: 'charge', kind: 'charge', from: ledgerAccount.card(context.posterId), to: ledgerAccount.escrow(jobId), amount: result.charged.amount, stripe: { kind: 'payment_intent', id: context.paymentIntentId }, settled: true }, at),
      ...movementPut({ scope, movementId: 'card_fee', kind: 'card_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: result.charged.cardFee, settled: true }, at),
      ...refundMovement(decision, jobId, context.posterId, result.refund, at),
      paymentRecordPut({
        id: context.paymentIntentId,
        jobId,
        jobTitle: context.title,
        posterId: context.posterId,
        workerId: null,
        amount: result.charged.amount,
        platformFee: 0,
        stripeFee: result.charged.cardFee,
        stripePaymentIntentId: context.paymentIntentId,
        status: 'refunded',
        transferId: null,
        refundedAt: at,
        refundedAmount: result.refund.amount,
        refundReason: reason,
        createdAt: at,
      }),
      ...notices([context.posterId], {
        jobId: null,
        type: 'payment_refunded',
        title: MSG.payments.refundedTitle,
        message: MSG.payments.draftRefunded(context.title, formatUsdAmount(result.refund.amount)),
        metadata: { jobTitle: context.title },
      }),
    ];
  },
  async settled(decision, results) {
    if (!resultOf(results, 'void', 'void').canceled) await pushPaymentChanged(decision.context.paymentIntentId);
  },
};

// ---------------------------------------------------------------- an offer under the budget

/** A repricing's refunds of part of the job's charges (an offer under the budget, a lower price): their ledger movements and the payment rows' refunded amounts. */
function differenceRefunded(decision: MoneyDecision<{ posterId: string; paymentIntentId: string; charges?: string[] }>, jobId: string, results: Record<string, MoveResult>, reason: string, at: string) {
  const refunds = resultsOn(results, 'refund', 'refund');
  return { refunded: sumOf(refunds), items: refundsRecorded(decision, jobId, refunds, reason, false, at) };
}

/** A job's price: what the worker receives, the platform's fee on it, and what the poster pays. */
export type JobPrice = Pick<JobItem, 'payment' | 'platformFee' | 'postedAmount'>;

export interface RepriceContext {
  posterId: string;
  /** The offer's worker, and the amount the poster accepted. */
  workerId: string;
  offer: number;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  /** What the poster gets back of what they paid for the budget. */
  refund: number;
  /** The job's price once assigned at the offer. */
  price: JobPrice;
}

/** What the difference's refund says, on Stripe's refund and the payment row. */
export const OFFER_REFUND_REASON = 'Offer accepted under the budget';

/**
 * An accepted offer's settlement assigning the job (under the budget once the difference is
 * refunded, above it once charged): the job at the offer's price, the offer accepted, the others
 * declined and each worker told — as a plain accept assigns — on condition that the decision
 * still owns the job's money and no offer came or went (none could: they were frozen).
 */
async function offerAssigned(decision: MoneyDecision<unknown>, job: JobItem, offer: { workerId: string; amount: number }, action: 'acceptOffer' | 'acceptOfferAbove', changes: Partial<JobItem>, at: string): Promise<TransactItem[]> {
  const applications = await applicationsOfJob(job.id);
  const chosen = await pendingApplication(job.id, offer.workerId, applications);
  if (chosen.amount !== offer.amount) throw new Error(`the offer of decision ${decision.id} changed while its money was settled`);
  const others = applications.filter((application) => application.status === 'pending' && application.workerId !== offer.workerId);
  const { updated, update } = jobTransition(
    job,
    action,
    { ...changes, workerId: offer.workerId, pendingApplications: 0, assignedAt: at, moneyDecisionId: undefined },
    { by: { posterId: job.posterId }, condition: { expression: 'moneyDecisionId = :decision AND pendingApplications = :seen', values: { ':decision': decision.id, ':seen': others.length + 1 } } },
    'settle',
  );
  return [{ Update: update }, ...assignmentWrites(updated, chosen, others, at).items];
}

/**
 * An offer under the budget accepted (issue 45, shared/job-process.ts `acceptOffer`). Settled:
 * the difference is back on the poster's card, and the job assigned to the offer's worker at
 * the offer's price in the same transaction — the other offers declined, each worker told —
 * exactly as a plain accept assigns (the offers could not change while the money was pending).
 * Handed back when Stripe refuses the refund for good (a refund in its dashboard or a chargeback
 * took the money first): the money held, the job still open, nothing assigned.
 */
export const repricePlan: Plan<RepriceContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const job = await jobOf(decision);
    const at = new Date().toISOString();
    const { refunded, items } = differenceRefunded(decision, job.id, results, OFFER_REFUND_REASON, at);
    return [
      ...(await offerAssigned(decision, job, { workerId: context.workerId, amount: context.offer }, 'acceptOffer', context.price, at)),
      ...items,
      ...notices([context.posterId], { jobId: job.id, type: 'payment_refunded', title: OFFER_TEXTS.refundedTitle, message: OFFER_TEXTS.refundedMessage(formatCents(refunded), job.title), metadata: { jobTitle: job.title } }),
    ];
  },
  async rollBack(decision) {
    const job = await jobOf(decision);
    return { items: [handBack(job, decision, 'held')], answer: conflict(OFFER_TEXTS.refundRefused) };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- a lower price approved

export interface PriceChangeContext {
  posterId: string;
  workerId: string;
  title: string;
  paymentIntentId: string;
  /** Every charge of the job, oldest first (job-charges.ts); decisions of before name only their payment's. */
  charges?: string[];
  /** The request approved, its history item, and the pay it names. */
  priceChange: { id: string; requestedAt: string; amount: number };
  /** What the poster gets back of what they paid. */
  refund: number;
  /** The job's price once changed. */
  price: JobPrice;
}

/** What a lower price's refund says, on Stripe's refund and the payment row. */
export const PRICE_CHANGE_REFUND_REASON = 'Price change approved';

/** The request's history item, approved with what moved of the poster's money (from `requested` only: one answer lands). */
function priceChangeApproved(jobId: string, request: PriceChangeContext['priceChange'], at: string, moved: { refunded: number } | { charged: number }): TransactItem {
  const [field, amount] = 'refunded' in moved ? ['refunded', moved.refunded] : ['charged', moved.charged];
  return {
    Update: {
      TableName: tableName(),
      Key: keys.priceChange(jobId, request.requestedAt, request.id),
      UpdateExpression: 'SET #status = :approved, answeredAt = :at, #moved = :amount',
      ConditionExpression: '#status = :requested',
      ExpressionAttributeNames: { '#status': 'status', '#moved': field },
      ExpressionAttributeValues: { ':approved': 'approved', ':requested': 'requested', ':at': at, ':amount': amount },
    },
  };
}

/** The worker's notice that the poster approved their new price. */
const priceChangeApprovedNotice = (context: { workerId: string; priceChange: { amount: number } }, job: JobItem) =>
  notices([context.workerId], { jobId: job.id, type: 'price_change_approved', title: PRICE_CHANGE_TEXTS.approvedTitle, message: PRICE_CHANGE_TEXTS.approvedMessage(formatCents(context.priceChange.amount), job.title), metadata: { jobTitle: job.title } });

/**
 * A price change to less approved (issue 45, shared/job-process.ts `approvePriceChange`).
 * Settled: the difference is back on the poster's card, and in the same transaction the job
 * takes the new price (its release pays it), the request is approved in its history and the
 * worker told. Handed back when Stripe refuses the refund for good (a refund in its dashboard or
 * a chargeback took the money first): the money held at the old price, the request still waiting.
 */
export const priceChangePlan: Plan<PriceChangeContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const job = await jobOf(decision);
    const at = new Date().toISOString();
    const { updated, update } = jobTransition(job, 'approvePriceChange', { ...context.price, priceChange: undefined, moneyDecisionId: undefined }, ofDecision(job, decision), 'settle');
    const { refunded, items } = differenceRefunded(decision, job.id, results, PRICE_CHANGE_REFUND_REASON, at);
    return [
      { Update: update },
      priceChangeApproved(job.id, context.priceChange, at, { refunded }),
      ...items,
      jobEvent(JOB_EVENT.updated, updated, 'priceChange'),
      ...priceChangeApprovedNotice(context, job),
      ...notices([context.posterId], { jobId: job.id, type: 'payment_refunded', title: PRICE_CHANGE_TEXTS.refundedTitle, message: PRICE_CHANGE_TEXTS.refundedMessage(formatCents(refunded), job.title), metadata: { jobTitle: job.title } }),
    ];
  },
  async rollBack(decision) {
    const job = await jobOf(decision);
    return { items: [handBack(job, decision, 'held')], answer: conflict(PRICE_CHANGE_TEXTS.refundRefused) };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

// ---------------------------------------------------------------- a higher price approved

export interface TopUpContext {
  posterId: string;
  workerId: string;
  title: string;
  /** The job's payment (the admin console's push names it). */
  paymentIntentId: string;
  /** What the charge is for: a price change approved (its history item, the pay it names), or an offer above the budget accepted. */
  priceChange?: { id: string; requestedAt: string; amount: number };
  offer?: { workerId: string; amount: number };
  /** The difference charged: the new price's total less what the poster had paid. */
  charge: number;
  /** The job's price once changed. */
  price: JobPrice;
}

/** The top-up's own row in the admin's payments table: its worker from the start, the fee it adds, its card fee. */
function topUpPaymentRow(jobId: string, context: TopUpContext, intent: ChargedIntent, platformFee: number, fields: { refundReason?: string }, at: string): TransactItem {
  return paymentRecordPut({
    kind: 'top_up',
    id: intent.id,
    jobId,
    jobTitle: context.title,
    posterId: context.posterId,
    workerId: context.workerId,
    amount: intent.amount,
    platformFee,
    stripeFee: intent.cardFee,
    stripePaymentIntentId: intent.id,
    status: fields.refundReason ? 'refunded' : 'succeeded',
    transferId: null,
    ...(fields.refundReason ? { refundedAt: at, refundedAmount: intent.amount, refundReason: fields.refundReason } : {}),
    createdAt: at,
  });
}

/** A top-up's charge into the job's escrow (with the fee it adds), and its card fee, which the platform bears as it does the payment's. */
function topUpChargeMovements(decision: MoneyDecision<TopUpContext>, jobId: string, intent: ChargedIntent, platformFee: number, at: string): TransactItem[] {
  const scope = jobScope(jobId);
  return [
    ...movementPut({ scope, movementId: movementIdOf(decision, 'charge'), kind: 'charge', from: ledgerAccount.card(decision.context.posterId), to: ledgerAccount.escrow(jobId), amount: intent.amount, platformFee, stripe: { kind: 'payment_intent', id: intent.id }, settled: true }, at),
    ...movementPut({ scope, movementId: movementIdOf(decision, 'card_fee'), kind: 'card_fee', from: ledgerAccount.revenue(), to: ledgerAccount.stripeFees(), amount: intent.cardFee, settled: true }, at),
  ];
}

/**
 * A price change to more approved (issue 45, shared/job-process.ts `raisePrice`). The charge's
 * answer settles it either way. Charged: the job takes the new price and the charge is one of
 * its charges (its `topUps`), the request approved, the charge and its card fee in the ledger,
 * its own payment row, both sides told. Not charged — the bank wants the poster (the card step)
 * or declined the card: nothing moved, the money is held again at the old price and the request
 * keeps the intent, so the approval after the card step reads it rather than charging again.
 * Handed back when Stripe refuses the charge's request for good (the saved card is gone).
 */
export const topUpPlan: Plan<TopUpContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const { intent } = resultOf(results, 'charge', 'topUp');
    const job = await jobOf(decision);
    const at = new Date().toISOString();
    if (intent.status !== 'succeeded') {
      // Kept where the same request after the card step looks: on the price change, or on the job for the offer.
      const [waiting, values] = context.priceChange
        ? ['priceChange.topUpIntentId = :waiting', { ':waiting': intent.id }]
        : ['offerTopUp = :waiting', { ':waiting': { ...context.offer, intentId: intent.id } }];
      return [
        {
          Update: {
            TableName: tableName(),
            Key: keys.job(job.id),
            UpdateExpression: `SET #money = :held, ${waiting} REMOVE moneyDecisionId`,
            ConditionExpression: 'moneyDecisionId = :decision',
            ExpressionAttributeNames: { '#money': 'moneyState' },
            ExpressionAttributeValues: { ':held': 'held', ':decision': decision.id, ...values },
          },
        },
      ];
    }
    const topUps = [...(job.topUps ?? []), { paymentIntentId: intent.id, chargeId: intent.chargeId ?? '', amount: intent.amount }];
    const addedFee = context.price.platformFee - job.platformFee;
    const charged = [...topUpChargeMovements(decision, job.id, intent, addedFee, at), topUpPaymentRow(job.id, context, intent, addedFee, {}, at)];
    if (context.offer) {
      const texts = { title: OFFER_TEXTS.chargedTitle, message: OFFER_TEXTS.chargedMessage(formatCents(intent.amount), job.title) };
      return [...(await offerAssigned(decision, job, context.offer, 'acceptOfferAbove', { ...context.price, topUps, offerTopUp: undefined }, at)), ...charged, ...notices([context.posterId], { jobId: job.id, type: 'payment_charged', ...texts, metadata: { jobTitle: job.title } })];
    }
    const request = context.priceChange!;
    const { updated, update } = jobTransition(job, 'raisePrice', { ...context.price, topUps, priceChange: undefined, moneyDecisionId: undefined }, ofDecision(job, decision), 'settle');
    return [
      { Update: update },
      priceChangeApproved(job.id, request, at, { charged: intent.amount }),
      ...charged,
      jobEvent(JOB_EVENT.updated, updated, 'priceChange'),
      ...priceChangeApprovedNotice({ workerId: context.workerId, priceChange: request }, job),
      ...notices([context.posterId], { jobId: job.id, type: 'payment_charged', title: PRICE_CHANGE_TEXTS.chargedTitle, message: PRICE_CHANGE_TEXTS.chargedMessage(formatCents(intent.amount), job.title), metadata: { jobTitle: job.title } }),
    ];
  },
  async rollBack(decision) {
    const job = await jobOf(decision);
    return { items: [handBack(job, decision, 'held')], answer: conflict(decision.context.offer ? OFFER_TEXTS.chargeRefused : PRICE_CHANGE_TEXTS.chargeRefused) };
  },
  settled: (decision) => pushPaymentChanged(decision.context.paymentIntentId),
};

export interface TopUpRefundContext extends TopUpContext {
  /** The charge that succeeded after its job moved on (the card step finished late). */
  intent: ChargedIntent;
}

/**
 * A top-up whose card step finished after its job moved on (completed, cancelled, the request
 * withdrawn or declined): the poster gets it back in full, and the ledger shows it came and went.
 */
export const topUpRefundPlan: Plan<TopUpRefundContext> = {
  async settle(decision, results) {
    const { context } = decision;
    const refund = resultOf(results, 'refund', 'refund');
    const jobId = decision.jobId ?? '';
    const job = await getJob(jobId, { consistentRead: true, includeDeleting: true });
    const at = new Date().toISOString();
    const why = context.offer ? OFFER_TEXTS.chargedAfterMovedOn : PRICE_CHANGE_TEXTS.chargedAfterMovedOn;
    return [
      // It came and went: no fee of the platform's in it.
      ...topUpChargeMovements(decision, jobId, context.intent, 0, at),
      ...refundMovement(decision, jobId, context.posterId, refund, at),
      topUpPaymentRow(jobId, context, context.intent, 0, { refundReason: why }, at),
      ...notices([context.posterId], { jobId: job ? jobId : null, type: 'payment_refunded', title: MSG.payments.refundedTitle, message: why, metadata: { jobTitle: context.title } }),
    ];
  },
  settled: (decision) => pushPaymentChanged(decision.context.intent.id),
};
