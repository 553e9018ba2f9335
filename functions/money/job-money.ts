import { TIP_IN_FLIGHT, PENDING_MONEY, canPerform, moneyStateOf, type JobAction } from '../../shared/job-process.js';
import type { Application, CardStepAnswer, ReversalPreview } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { heldAmount, releasableAmount, formatUsdAmount, type PriceQuote } from '../../shared/money.js';
import { HttpError, badRequest, conflict, notFound } from '../lib/errors.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT, type JobChange } from '../routes.js';
import { adminActionPut } from '../lib/admin-actions.js';
import { disputeClaimed, type DisputeResolution } from '../disputes/dispute-resolution.js';
import { jobEvent } from '../jobs/job-events.js';
import { jobTransition } from '../jobs/job-transitions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { jobScope } from './ledger.js';
import { decisionPut, newDecision, type MoneyDecision, type PlannedCall } from './decision.js';
import { MoneyRefused, carryOut, carryOutQuietly } from './executor.js';
import { OFFER_REFUND_REASON, PRICE_CHANGE_REFUND_REASON, SPLIT_REASON, type TopUpContext, type TopUpRefundContext, type JobPrice, type JobRestore, type PriceChangeContext, type RefundContext, type ReleaseContext, type RepriceContext, type ReverseContext, type SplitContext, type VoidContext } from './job-plans.js';
import { retrieveIntent, type ChargedIntent } from './stripe-moves.js';
import { allocate, callOn, chargeIdOf, chargeIntentsOf, chargeRests, chargesOf, type ChargeRest } from './job-charges.js';
import { profileNames, getProfile } from '../people/profiles.js';

/**
 * The job's money transitions as its parties and the admin start them (shared/job-process.ts):
 * each checks what it can before anything is written, then writes its decision with the job's
 * pending money state and guards as conditions, and hands it to the executor
 * (functions/money/executor.ts), which makes its Stripe calls and settles it. Two actions
 * racing meet at the decision's conditions: one wins, the other is answered with the state that
 * beat it.
 */

/** The money state each action's pending decision ends in (refund for every refunding action). */
const SETTLES_IN: Partial<Record<JobAction, string>> = { release: 'released', refund: 'refunded', split: 'split', reverse: 'reversed' };

/** Why `action` cannot be taken on the job as it is: the clearest of the spec's (and our) refusals. */
export function moneyRefusal(job: JobItem, action: JobAction): HttpError {
  const money = moneyStateOf(job);
  if (money === 'frozen') return conflict(MSG.payments.frozenByChargeback);
  if (money === 'charged_back') return conflict(MSG.payments.chargedBack);
  if (money === 'refunded' || money === 'refunding' || money === 'reversed' || money === 'reversing') return conflict(MSG.payments.alreadyRefundedJob);
  if (PENDING_MONEY[money]) return conflict(MSG.payments.moneyDecisionUnderWay);
  if (action === 'release') return conflict(money === 'released' || money === 'split' ? MSG.payments.alreadyReleased : MSG.payments.onlyCompletedRelease);
  if (action === 'reverse') return conflict(MSG.payments.onlyReleasedReverse);
  return conflict(money === 'released' || money === 'split' ? MSG.payments.refundAfterReleaseNeedsReversal : MSG.jobs.statusChanged);
}

/**
 * Carries out the decision pending on the job (the same action asked again, a second click, a
 * retry after Stripe was down): the executor finishes it once, however many ask.
 */
async function finishPending(job: JobItem): Promise<JobItem> {
  if (job.moneyDecisionId) await carryOutAnswering(job.moneyDecisionId);
  return (await getJob(job.id, { consistentRead: true, includeDeleting: true })) ?? job;
}

/** The executor's work, with a decision Stripe refused for good answered as its plan says. */
async function carryOutAnswering(decision: MoneyDecision<unknown> | string): Promise<void> {
  try {
    await carryOut(decision);
  } catch (error) {
    if (error instanceof MoneyRefused) throw error.answer;
    throw error;
  }
}

/**
 * Writes a decision of the job's money with its conditions and carries it out. A refused
 * condition is answered with the state that beat it — unless `joinable` and the same action got
 * there first (racing release clicks, the auto-release meeting the poster): that decision is
 * finished instead, and the job answered as it ended.
 */
async function decideAndCarryOut(job: JobItem, action: JobAction, decision: MoneyDecision<unknown>, items: TransactItem[], options: { joinable?: boolean; waitForStripe?: boolean } = {}): Promise<JobItem> {
  const { joinable = true, waitForStripe = true } = options;
  try {
    await retryLostRaces(() => transactWrite([decisionPut(decision), ...items]));
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
    const current = await getJob(job.id, { consistentRead: true });
    if (!current) throw notFound(MSG.jobs.notFound);
    const money = moneyStateOf(current);
    if (joinable && PENDING_MONEY[money] === action) return finishPending(current);
    if (joinable && SETTLES_IN[action] === money) return current;
    throw moneyRefusal(current, action);
  }
  if (waitForStripe) {
    await carryOutAnswering(decision);
  } else {
    // The job's own change (a cancel) is done; its refund goes on without the caller: a failure
    // leaves the decision pending, which the retry schedule finishes.
    await carryOutQuietly(decision);
  }
  return (await getJob(job.id, { consistentRead: true, includeDeleting: true })) ?? job;
}

/** The worker's account, which a transfer needs ready (the `workerAccountReady` guard), with the spec's refusals. */
async function readyWorkerAccount(workerId: string): Promise<string> {
  const worker = await getProfile(workerId);
  if (!worker?.stripeAccountId) throw badRequest(MSG.payments.workerNotConnected);
  if (worker.paymentAccount.status !== 'complete') throw badRequest(MSG.payments.workerSetupIncomplete);
  return worker.stripeAccountId;
}

/** The charge of the job's payment, which its transfers are funded from. */
const chargeOf = (job: JobItem): Promise<string | undefined> => chargeIdOf(chargesOf(job)[0]!);

/**
 * The transfers of `amount` to `destination`, each funded by a charge of the job: from its
 * payment's, or — on a job of several charges (job-charges.ts) — from each, the oldest first,
 * each up to what is left of it (`spent`: what the same decision's refunds take of it first).
 */
async function transferCalls(job: JobItem, amount: number, destination: string, metadata: Record<string, string>, rests?: ChargeRest[], spent: (index: number) => number = () => 0): Promise<PlannedCall[]> {
  const transfer = (part: number, sourceCharge: string | undefined) => ({ kind: 'transfer' as const, amount: part, destination, transferGroup: job.id, ...(sourceCharge ? { sourceCharge } : {}), metadata });
  if (!rests) return [{ name: 'transfer', move: transfer(amount, await chargeOf(job)) }];
  return allocate(amount, rests, 'oldest', (index) => rests[index]!.rest - spent(index)).map(({ index, amount: part }) => ({ name: callOn('transfer', index), move: transfer(part, rests[index]!.chargeId) }));
}

/**
 * Refunds of the job's charges: `amount` taken from the newest first (a lower price, a split),
 * or, without one, the rest of each (a refund of everything held). A job of one charge refunds
 * its payment as it always did.
 */
function refundCalls(job: JobItem, rests: ChargeRest[] | undefined, reason: string, amount?: number): PlannedCall[] {
  const paymentIntent = job.stripePaymentIntentId ?? '';
  if (!rests) return [{ name: 'refund', move: { kind: 'refund', paymentIntent, ...(amount !== undefined ? { amount } : {}), reason } }];
  // A charge the bank took back in a chargeback cannot be refunded: it has nothing left to give.
  const parts = amount === undefined ? rests.flatMap((charge, index) => (charge.rest > 0 && !charge.disputed ? [{ index, amount: undefined }] : [])) : allocate(amount, rests, 'newest');
  return parts.map(({ index, amount: part }) => ({ name: callOn('refund', index), move: { kind: 'refund', paymentIntent: rests[index]!.paymentIntentId, ...(part !== undefined ? { amount: part } : {}), reason } }));
}

/** What `calls` refund of the charge at `index` (a split's transfers are funded from what its refunds leave). */
const refundedBy = (calls: PlannedCall[]) => (index: number) =>
  calls.filter((call) => call.name === callOn('refund', index) && call.move.kind === 'refund').reduce((total, call) => total + ((call.move as { amount?: number }).amount ?? 0), 0);

const restoreOf = (job: JobItem): JobRestore => ({
  autoReleaseAt: job.autoReleaseAt,
  autoReleasePausedAt: job.autoReleasePausedAt,
  autoReleasePauseReason: job.autoReleasePauseReason,
  pausedReleaseAt: job.pausedReleaseAt,
});
/** What a decision clears of the auto-release (its schedules find the job no longer waiting for them). */
const AUTO_RELEASE_CLEARED = { autoReleaseAt: undefined, autoReleasePausedAt: undefined, autoReleasePauseReason: undefined, pausedReleaseAt: undefined } as const;

// ---------------------------------------------------------------- release

/** Who releases, when it is not the poster's own click. */
export interface ReleaseOptions {
  /** The admin (releasing a job not their own) and the reason the audit log keeps. */
  admin?: { reason: string };
  /**
   * The auto-release (DECISIONS.md "Wave 3"), for the release it counted down to: decided only
   * while the job still awaits that very release, not paused, with no dispute open.
   */
  automatic?: { releaseAt: string };
  /** A dispute's resolution that releases: it pays the job's worker only if they are the dispute's. */
  dispute?: DisputeResolution;
}

/** A job after release. */
export interface PaidJob {
  job: JobItem;
}

/** The worker of a dispute: whichever of its two parties is not the job's poster. */
export const disputeWorkerOf = (dispute: DisputeResolution['dispute'], job: Pick<JobItem, 'posterId'>) => (dispute.reporterId === job.posterId ? dispute.reportedId : dispute.reporterId);

/**
 * Releases a completed job's payment to its worker (spec 2 §5 "Release payment"), by its poster,
 * the admin (with a reason, logged in the decision's transaction), the auto-release or a
 * dispute's resolution: decided (held -> releasing) only while the money is held, so a refund, a
 * split or a delete that came first refuses it; then the executor's transfer and settlement.
 * Called again on a paid job it answers the job as it is; on a pending release it finishes it.
 */
export async function releasePayment(jobId: string, callerId: string, options: ReleaseOptions = {}): Promise<PaidJob> {
  const { admin, automatic, dispute } = options;
  const job = await getJob(jobId, { consistentRead: true });
  const asAdmin = admin !== undefined && job?.posterId !== callerId;
  if (!job || (job.posterId !== callerId && !asAdmin)) throw notFound(MSG.jobs.notFound);
  const money = moneyStateOf(job);
  // Asked again, a release answers as done; a dispute's resolution decides only money still held.
  if (money === 'released' && job.status === 'paid' && !dispute) return { job };
  if (asAdmin && !admin.reason) throw badRequest(MSG.payments.releaseReasonRequired);
  if (money === 'releasing' && !dispute) return { job: await finishPending(job) };
  if (money !== 'held') throw moneyRefusal(job, 'release');
  if (dispute && disputeWorkerOf(dispute.dispute, job) !== job.workerId) throw conflict(MSG.disputes.releaseToOtherWorker);
  if (!job.workerId) throw badRequest(MSG.payments.noWorkerAssigned);
  if (!canPerform('release', job)) throw moneyRefusal(job, 'release');
  if (!job.stripePaymentIntentId) throw new HttpError(409, MSG.payments.cannotReleaseYet);
  const destination = await readyWorkerAccount(job.workerId);
  const amount = releasableAmount(job);
  if (amount <= 0) throw conflict(MSG.payments.nothingLeftToRelease);

  const context: ReleaseContext = {
    posterId: job.posterId,
    workerId: job.workerId,
    title: job.title,
    paymentIntentId: job.stripePaymentIntentId,
    charges: chargeIntentsOf(job),
    amount,
    platformFee: job.platformFee,
    ...(automatic ? { automatic: true } : {}),
    restore: restoreOf(job),
    ...(dispute ? { dispute } : {}),
  };
  const calls = await transferCalls(job, amount, destination, { jobId: job.id, workerId: job.workerId }, await chargeRests(job));
  const decision = newDecision<ReleaseContext>('release', job.id, { scope: jobScope(job.id), jobId: job.id, label: job.title, amount, calls, context });
  const { update } = jobTransition(
    job,
    'release',
    { ...AUTO_RELEASE_CLEARED, moneyDecisionId: decision.id },
    {
      by: { posterId: job.posterId },
      // The `autoReleaseRunning` guard: still this release, not paused since, no dispute open.
      ...(automatic
        ? {
            condition: {
              expression: 'autoReleaseAt = :at AND attribute_not_exists(autoReleasePausedAt) AND (attribute_not_exists(openDisputes) OR openDisputes <= :none)',
              values: { ':at': automatic.releaseAt, ':none': 0 },
            },
          }
        : {}),
    },
  );
  const logged = asAdmin ? [adminActionPut({ adminId: callerId, actionType: 'release_payment', targetType: 'job', targetId: job.id, details: { amount }, reason: admin.reason })] : [];
  const claimed = dispute ? [disputeClaimed(dispute, decision.id)] : [];
  return { job: await decideAndCarryOut(job, 'release', decision, [{ Update: update }, ...logged, ...claimed], { joinable: !dispute }) };
}

// ---------------------------------------------------------------- refund

/** How a refund was decided: the action of the process that took it, and what it writes beside. */
export interface RefundDecision {
  action: 'refund' | 'cancel' | 'adminCancel';
  reason: string;
  /** The admin's audit entry and notices, or the poster's, for the decision's transaction. */
  extra?: TransactItem[];
  /** The job's own changes beside the money (a cancel clears the worker). */
  changes?: Partial<JobItem>;
  change?: JobChange;
  /** Who is told the money went back, once it has. */
  tell: string[];
  /** The caller waits for Stripe's refund (the admin's refund) or only for the job's change (a cancel). */
  waitForStripe?: boolean;
  dispute?: DisputeResolution;
}

/** A refund of the rest of the job's charges, as a decision of the executor. */
async function refundDecisionOf(job: JobItem, reason: string, fields: Pick<RefundContext, 'tell' | 'deleting' | 'dispute'>): Promise<MoneyDecision<RefundContext>> {
  const paymentIntentId = job.stripePaymentIntentId ?? '';
  return newDecision<RefundContext>('refund', job.id, {
    scope: jobScope(job.id),
    jobId: job.id,
    label: job.title,
    amount: heldAmount(job),
    calls: refundCalls(job, await chargeRests(job), reason),
    context: { posterId: job.posterId, title: job.title, paymentIntentId, charges: chargeIntentsOf(job), reason, ...fields },
  });
}

/**
 * Decides a refund of held money (held -> refunding, the job cancelled with the reason, any
 * auto-release and pause removed), so no release, split or delete can follow, and carries it out.
 */
export async function decideRefund(job: JobItem, refund: RefundDecision): Promise<JobItem> {
  if (!canPerform(refund.action, job)) throw moneyRefusal(job, refund.action);
  const decision = await refundDecisionOf(job, refund.reason, { tell: refund.tell, ...(refund.dispute ? { dispute: refund.dispute } : {}) });
  const { updated, update } = jobTransition(job, refund.action, { refundReason: refund.reason, ...AUTO_RELEASE_CLEARED, ...refund.changes, moneyDecisionId: decision.id }, { by: { posterId: job.posterId } });
  const claimed = refund.dispute ? [disputeClaimed(refund.dispute, decision.id)] : [];
  return decideAndCarryOut(job, 'refund', decision, [{ Update: update }, jobEvent(JOB_EVENT.updated, updated, refund.change ?? 'cancelled'), ...(refund.extra ?? []), ...claimed], {
    joinable: false,
    waitForStripe: refund.waitForStripe ?? false,
  });
}

/**
 * The refund decision of a job being deleted with held money, for the transaction that marks it
 * deleting (functions/jobs/job-management.ts): its ledger and payment row settle, the job goes.
 */
export async function deletingRefund(job: JobItem, reason: string, tell: string[]): Promise<{ decision: MoneyDecision<RefundContext>; changes: Partial<JobItem> }> {
  const decision = await refundDecisionOf(job, reason, { tell, deleting: true });
  return { decision, changes: { moneyState: 'refunding', refundReason: reason, moneyDecisionId: decision.id } };
}


/**
 * The admin's refund of a job's payment (spec 2 §5 "Payment record"), from the payments table or
 * a dispute's resolution: what is held is refunded and the job cancelled with the reason (refused
 * once released: that takes a reversal). The same refund asked again finishes a pending one
 * (answered as not decided here: another click refunded), and one already made is a 409.
 */
export async function adminRefundJob(job: JobItem, reason: string, adminId: string, dispute?: DisputeResolution): Promise<{ job: JobItem; decidedHere: boolean }> {
  const money = moneyStateOf(job);
  if (money === 'refunded') throw conflict(MSG.admin.alreadyRefunded);
  if (money === 'refunding') {
    // A refund under way with another reason is another admin's decision: not this one's to finish.
    if (job.refundReason !== reason || dispute) throw conflict(MSG.admin.refundInProgressOtherReason);
    return { job: await finishPending(job), decidedHere: false };
  }
  if (money !== 'held') throw moneyRefusal(job, 'refund');
  const refunded = await decideRefund(job, {
    action: 'refund',
    reason,
    waitForStripe: true,
    tell: [job.posterId, ...(job.workerId ? [job.workerId] : [])],
    extra: [adminActionPut({ adminId, actionType: 'issue_refund', targetType: 'payment', targetId: job.stripePaymentIntentId ?? job.id, details: { jobId: job.id, amount: heldAmount(job) }, reason })],
    ...(dispute ? { dispute } : {}),
  });
  return { job: refunded, decidedHere: true };
}

// ---------------------------------------------------------------- a lower price: an offer under the budget, a price change

/** What a repricing's decision and settlement both need: the refund, and the job's price once settled. */
type Repricing = PriceQuote & { refund: number };

/**
 * The refund of what the poster paid beyond a lower price (issue 45), as a decision for the
 * transaction that moves the job's money to `repricing`: the executor refunds `price.refund` of
 * the job's charge, and the action's plan settles the job at `price`.
 */
async function differenceRefundDecision<Context extends { refund: number; price: JobPrice; charges?: string[] }>(
  job: JobItem,
  action: 'reprice' | 'priceChange',
  price: Repricing,
  reason: string,
  context: (paymentIntentId: string) => Omit<Context, 'refund' | 'price' | 'charges'>,
): Promise<MoneyDecision<Context>> {
  const paymentIntentId = job.stripePaymentIntentId ?? '';
  return newDecision<Context>(action, job.id, {
    scope: jobScope(job.id),
    jobId: job.id,
    label: job.title,
    amount: price.refund,
    calls: refundCalls(job, await chargeRests(job), reason, price.refund),
    context: {
      ...context(paymentIntentId),
      charges: chargeIntentsOf(job),
      refund: price.refund,
      price: { payment: price.payment, platformFee: price.platformFee, postedAmount: price.postedAmount },
    } as Context,
  });
}

/** An offer accepted under the budget (functions/applications): settled, the job is assigned to the offer's worker at its price. */
export const offerRefundDecision = (job: JobItem, offer: Pick<Application, 'workerId' | 'amount'>, price: Repricing): Promise<MoneyDecision<RepriceContext>> =>
  differenceRefundDecision<RepriceContext>(job, 'reprice', price, OFFER_REFUND_REASON, (paymentIntentId) => ({
    posterId: job.posterId,
    workerId: offer.workerId,
    offer: offer.amount ?? price.payment,
    title: job.title,
    paymentIntentId,
  }));

/** A lower price approved (functions/applications/price-changes.ts): settled, the job has the new price. */
export const priceChangeRefundDecision = (job: JobItem, request: PriceChangeContext['priceChange'], price: Repricing): Promise<MoneyDecision<PriceChangeContext>> =>
  differenceRefundDecision<PriceChangeContext>(job, 'priceChange', price, PRICE_CHANGE_REFUND_REASON, (paymentIntentId) => ({
    posterId: job.posterId,
    workerId: job.workerId ?? '',
    title: job.title,
    paymentIntentId,
    priceChange: request,
  }));

// ---------------------------------------------------------------- a higher price: a price change

/**
 * The charge of a higher price's difference (issue 45), as a decision for the transaction that
 * moves the job's money to `topping_up` (functions/applications/price-changes.ts): the executor
 * makes `call` (the charge, or the read of the one the card step finished) and its settlement
 * gives the job the new price with the charge among its charges.
 */
export function topUpDecision(job: JobItem, purpose: Pick<TopUpContext, 'priceChange' | 'offer'>, price: PriceQuote & { charge: number }, call: PlannedCall): MoneyDecision<TopUpContext> {
  return newDecision<TopUpContext>('topUp', job.id, {
    scope: jobScope(job.id),
    jobId: job.id,
    label: job.title,
    amount: price.charge,
    calls: [call],
    context: {
      posterId: job.posterId,
      workerId: purpose.offer?.workerId ?? job.workerId ?? '',
      title: job.title,
      paymentIntentId: job.stripePaymentIntentId ?? '',
      ...purpose,
      charge: price.charge,
      price: { payment: price.payment, platformFee: price.platformFee, postedAmount: price.postedAmount },
    },
  });
}

/** The card step a charge of the saved card waits for, as the poster's answer. */
export const cardStepOf = (intent: ChargedIntent, message: string): CardStepAnswer => ({
  status: 'card_needed',
  message,
  payment: { paymentIntentId: intent.id, clientSecret: intent.clientSecret, amount: intent.amount },
});

/**
 * The charge of a higher price's difference to the card the job's payment saved — or, after the
 * card step, the charge made before (`waitingIntentId`), read as it is. Still waiting for the
 * card step: the caller sends the poster there again. `purpose` names what it is for, on the
 * charge's metadata (Stripe's webhook finds it by it).
 */
export async function topUpChargeCall(job: JobItem, waitingIntentId: string | undefined, amount: number, purpose: Record<string, string>, noSavedCard: string): Promise<{ call: PlannedCall } | { cardStep: ChargedIntent }> {
  if (waitingIntentId) {
    const intent = await retrieveIntent(waitingIntentId);
    if (intent.status === 'succeeded') return { call: { name: 'charge', move: { kind: 'topUpIntent', paymentIntent: intent.id } } };
    if (intent.status !== 'canceled') return { cardStep: intent };
  }
  const poster = await getProfile(job.posterId);
  if (!poster?.stripeCustomerId || !job.stripePaymentMethodId) throw conflict(noSavedCard);
  return {
    call: {
      name: 'charge',
      move: { kind: 'topUpCharge', amount, customer: poster.stripeCustomerId, paymentMethod: job.stripePaymentMethodId, description: `Price change for ${job.title}`, jobId: job.id, posterId: job.posterId, purpose },
    },
  };
}

/**
 * A higher price's charge that succeeded after its job moved on (the card step finished late):
 * refunded in full, once however often Stripe reports it (the decision's id is the charge's).
 */
export async function refundLateTopUp(job: JobItem | undefined, jobId: string, intent: ChargedIntent, metadata: Record<string, string>): Promise<void> {
  const decision = newDecision<TopUpRefundContext>(
    'topUpRefund',
    jobId,
    {
      scope: jobScope(jobId),
      jobId,
      label: job?.title ?? intent.description,
      amount: intent.amount,
      calls: [{ name: 'refund', move: { kind: 'refund', paymentIntent: intent.id, reason: 'The job moved on before the price change was charged' } }],
      context: {
        posterId: metadata.posterId ?? job?.posterId ?? '',
        workerId: job?.workerId ?? '',
        title: job?.title ?? intent.description,
        paymentIntentId: job?.stripePaymentIntentId ?? '',
        ...(metadata.offerWorkerId ? { offer: { workerId: metadata.offerWorkerId, amount: Number(metadata.offerAmount ?? 0) } } : {}),
        charge: intent.amount,
        price: { payment: job?.payment ?? 0, platformFee: job?.platformFee ?? 0, postedAmount: job?.postedAmount ?? 0 },
        intent,
      },
    },
    intent.id,
  );
  try {
    await transactWrite([decisionPut(decision)]);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
  }
  await carryOutAnswering(decision.id);
}

/**
 * A job of several charges whose chargeback the bank decided for the poster (shared/job-process.ts
 * `refundRest`): the charges it did not take still hold money the job can no longer pay out, so
 * it goes back to the poster — decided once (the job's money moves `charged_back -> refunding`),
 * carried out by the executor, retried by its schedule.
 */
export async function refundRestAfterChargeback(jobId: string): Promise<void> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job?.topUps?.length || moneyStateOf(job) !== 'charged_back') return;
  const decision = await refundDecisionOf(job, MSG.payments.restRefundedAfterChargeback, { tell: [job.posterId] });
  // Nothing left that may be refunded (the charges the bank did not take are refunded already).
  if (decision.calls.length === 0) return;
  const { update } = jobTransition(job, 'refundRest', { moneyDecisionId: decision.id }, { by: { posterId: job.posterId } });
  try {
    await transactWrite([decisionPut(decision), { Update: update }]);
  } catch (error) {
    // Decided already (Stripe reported the chargeback again): that decision goes on.
    if (error instanceof TransactionRefused) return;
    throw error;
  }
  await carryOutQuietly(decision);
}

/** Carries out a money decision for the party who waits on it: the job as it ended, or the plan's refusal. */
export async function carryOutForCaller(decision: MoneyDecision<unknown>): Promise<JobItem> {
  await carryOutAnswering(decision);
  const job = await getJob(decision.jobId ?? '', { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  return job;
}

// ---------------------------------------------------------------- split

/**
 * A dispute's split (Wave 4, Wave 5): `toWorker` cents of what is held transferred to the
 * dispute's worker — the job's worker, or one who no longer holds it — the rest refunded to the
 * poster; the platform keeps no fee of a split. Decided with the dispute's claim (the resolution
 * that wins it moves the money), then refunded and transferred by the executor.
 */
export async function splitJobMoney(job: JobItem, toWorker: number, dispute: DisputeResolution): Promise<JobItem> {
  const payeeId = disputeWorkerOf(dispute.dispute, job);
  if (!job.stripePaymentIntentId) throw conflict(MSG.disputes.nothingToSplit);
  const held = heldAmount(job);
  const most = Math.min(job.payment, held);
  if (!Number.isInteger(toWorker) || toWorker < 1 || toWorker >= most) throw badRequest(MSG.disputes.splitAmountInvalid(formatUsdAmount(most)));
  const money = moneyStateOf(job);
  if (money !== 'held') throw moneyRefusal(job, 'split');
  const formerWorker = job.workerId !== payeeId;
  const action = formerWorker ? 'splitWithFormerWorker' : 'split';
  if (!canPerform(action, job)) throw moneyRefusal(job, 'split');
  const destination = await readyWorkerAccount(payeeId);
  const refundAmount = held - toWorker;
  const context: SplitContext = {
    posterId: job.posterId,
    payeeId,
    title: job.title,
    paymentIntentId: job.stripePaymentIntentId,
    charges: chargeIntentsOf(job),
    toWorker,
    refundAmount,
    formerWorker,
    ...(formerWorker && job.workerId ? { currentWorkerId: job.workerId } : {}),
    restore: restoreOf(job),
    dispute,
  };
  // The refunds first: the calls Stripe may refuse for good (a dashboard refund since), before anything moved;
  // the newest charges refunded, the transfers funded by what the oldest keep.
  const rests = await chargeRests(job);
  const refunds = refundCalls(job, rests, SPLIT_REASON, refundAmount);
  const calls: PlannedCall[] = [...refunds, ...(await transferCalls(job, toWorker, destination, { jobId: job.id, workerId: payeeId, split: 'true' }, rests, refundedBy(refunds)))];
  const decision = newDecision<SplitContext>('split', job.id, { scope: jobScope(job.id), jobId: job.id, label: job.title, amount: held, calls, context });
  const { update } = jobTransition(job, action, { ...AUTO_RELEASE_CLEARED, moneyDecisionId: decision.id }, { by: { posterId: job.posterId } });
  return decideAndCarryOut(job, 'split', decision, [{ Update: update }, disputeClaimed(dispute, decision.id)], { joinable: false });
}

// ---------------------------------------------------------------- reversal

/** What the admin confirmed in the console before a refund after release: the worker, the transfer's amount, and what the worker's balance returns of it. */
export interface ReversalConfirmation {
  workerId: string;
  amount: number;
  /** What the console showed the worker's balance could return; absent: all of it (the console of before Wave 5). */
  recover?: number;
}

/** The release's transfers: one, or one per charge of a job of several (job-charges.ts). */
const transfersOf = (job: JobItem): string[] => job.transferIds ?? (job.transferId ? [job.transferId] : []);

/**
 * What the worker's Stripe balance can return of the job's transfers now (their destination's
 * available balance), each transfer's part of it, and what is left of the poster's charges to refund.
 */
async function recoverableOf(job: JobItem): Promise<{ transferred: number; recoverable: number; reversible: number[]; refundable: number }> {
  const client = await stripe();
  const [transfers, charges] = await Promise.all([
    Promise.all(transfersOf(job).map((id) => client.transfers.retrieve(id))),
    Promise.all(chargesOf(job).map(async (charge) => client.charges.retrieve((await chargeIdOf(charge)) ?? ''))),
  ]);
  const destination = transfers[0]?.destination;
  const balance = await client.balance.retrieve({}, { stripeAccount: typeof destination === 'string' ? destination : (destination?.id ?? '') });
  const available = balance.available.find((entry) => entry.currency === 'usd')?.amount ?? 0;
  const reversible = transfers.map((transfer) => transfer.amount - transfer.amount_reversed);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    transferred: sum(transfers.map((transfer) => transfer.amount)),
    recoverable: Math.max(0, Math.min(sum(reversible), available)),
    reversible,
    refundable: sum(charges.map((charge) => charge.amount - charge.amount_refunded)),
  };
}

/** GET /admin/payments/{id}/reversal: what a refund after release would take back, before the admin confirms it (Wave 5). */
export async function reversalPreview(job: JobItem): Promise<ReversalPreview> {
  if (!canPerform('reverse', job) || !job.transferId || !job.workerId) throw moneyRefusal(job, 'reverse');
  const { transferred, recoverable, refundable } = await recoverableOf(job);
  const names = await profileNames([job.workerId]);
  return { jobId: job.id, workerId: job.workerId, workerName: names.get(job.workerId) ?? null, transferred, recoverable, unrecoverable: transferred - recoverable, refund: refundable };
}

/**
 * A refund after release (Wave 4, Wave 5), the admin's only: the worker's transfer reversed —
 * what their balance still holds of it — and the poster refunded in full, the job cancelled.
 * The admin must confirm the worker, the amount and what the balance returns as the console
 * showed them (`reversalConfirmed`): a confirmation that does not match is a 409, so nobody
 * reverses what they did not see. What the balance cannot return (a cash-out since) is the
 * platform's loss and the worker's debt in the ledger. Tips are their own money and stay.
 */
export async function reverseRelease(job: JobItem, reason: string, confirmation: ReversalConfirmation, adminId: string): Promise<JobItem> {
  if (!reason.trim()) throw badRequest(MSG.payments.refundReasonRequired);
  const money = moneyStateOf(job);
  if (money === 'reversed') throw conflict(MSG.admin.alreadyRefunded);
  if (money === 'reversing') return finishPending(job);
  if (!canPerform('reverse', job)) throw moneyRefusal(job, 'reverse');
  if (!job.transferId || !job.workerId || !job.stripePaymentIntentId) throw conflict(MSG.payments.onlyReleasedReverse);
  if (job.tipState && TIP_IN_FLIGHT.includes(job.tipState)) throw conflict(MSG.tips.inFlight);
  if (job.chargeback?.status === 'open') throw conflict(MSG.payments.chargebackOpen);
  const transferred = job.transferredAmount ?? job.payment;
  if (confirmation.workerId !== job.workerId || confirmation.amount !== transferred) throw conflict(MSG.payments.reversalNotConfirmed);
  const { recoverable, reversible } = await recoverableOf(job);
  const recover = confirmation.recover ?? transferred;
  // The worker cashed out since the admin looked: the console shows them what is left, to confirm again.
  if (recover > recoverable || recover < 0) throw conflict(MSG.payments.reversalBalanceChanged);

  const context: ReverseContext = {
    posterId: job.posterId,
    workerId: job.workerId,
    title: job.title,
    paymentIntentId: job.stripePaymentIntentId,
    charges: chargeIntentsOf(job),
    transferId: job.transferId,
    transferred,
    recover,
    reason,
  };
  // What the balance returns is taken back from the transfers in order; the poster gets the rest of every charge.
  const transferIds = transfersOf(job);
  const calls: PlannedCall[] = [
    ...allocate(recover, reversible.map((rest) => ({ rest })), 'oldest').map(({ index, amount }) => ({ name: callOn('reversal', index), move: { kind: 'reversal' as const, transfer: transferIds[index]!, amount } })),
    ...refundCalls(job, await chargeRests(job), reason),
  ];
  const decision = newDecision<ReverseContext>('reverse', job.id, { scope: jobScope(job.id), jobId: job.id, label: job.title, amount: heldAmount(job), calls, context });
  const { update } = jobTransition(job, 'reverse', { refundReason: reason, moneyDecisionId: decision.id }, { by: { posterId: job.posterId } });
  const logged = adminActionPut({
    adminId,
    actionType: 'issue_refund',
    targetType: 'payment',
    targetId: job.stripePaymentIntentId,
    details: { jobId: job.id, reversedTransfer: job.transferId, amount: transferred, recover, workerId: job.workerId },
    reason,
  });
  return decideAndCarryOut(job, 'reverse', decision, [{ Update: update }, logged], { joinable: false });
}

// ---------------------------------------------------------------- a draft's payment

/**
 * The cancellation of an unpaid draft's PaymentIntent (or its refund, should it have succeeded
 * meanwhile), as a decision of the executor. One per draft, whoever removes it — its poster, the
 * admin, its expiry, an account deletion, a payment that arrived for a draft already gone — so
 * the draft's money is voided once.
 */
export function voidDecision(job: Pick<JobItem, 'id' | 'posterId' | 'title' | 'postedAmount' | 'stripePaymentIntentId'>): MoneyDecision<VoidContext> {
  const paymentIntentId = job.stripePaymentIntentId ?? '';
  return newDecision<VoidContext>(
    'void',
    job.id,
    {
      scope: jobScope(job.id),
      jobId: job.id,
      label: job.title,
      amount: job.postedAmount,
      calls: [{ name: 'void', move: { kind: 'void', paymentIntent: paymentIntentId } }],
      context: { posterId: job.posterId, title: job.title, paymentIntentId },
    },
    'draft',
  );
}

/** Writes a draft's void decision unless one is there already, and carries out whichever is. */
export async function voidGoneDraft(job: Parameters<typeof voidDecision>[0]): Promise<void> {
  const decision = voidDecision(job);
  try {
    await transactWrite([decisionPut(decision)]);
  } catch (error) {
    if (!(error instanceof TransactionRefused)) throw error;
  }
  await carryOutAnswering(decision.id);
}
