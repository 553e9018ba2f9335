import { stripe } from '../lib/stripe.js';
import type { JobItem } from '../jobs/jobs.js';
import type { MoveResult } from './stripe-moves.js';
import { retrieveIntent } from './stripe-moves.js';

/**
 * A job's money may be more than one charge of the poster's card (issue 45, docs/decisions/0324):
 * its payment, then a top-up for each higher price approved. Every move of the job's money spans
 * them, each Stripe call on one charge: a release transfers from each (funded by it, so Stripe
 * itself refuses a transfer beyond it), a refund refunds each, a split refunds the newest first
 * and transfers from the oldest. A job of one charge makes exactly the calls it always made, under
 * the same names, so decisions and ledger movements of before read as they did.
 */

export interface JobCharge {
  paymentIntentId: string;
  chargeId?: string;
}

/** The job's charges, oldest first: its payment, then its top-ups. */
export const chargesOf = (job: Pick<JobItem, 'stripePaymentIntentId' | 'stripeChargeId' | 'topUps'>): JobCharge[] => [
  { paymentIntentId: job.stripePaymentIntentId ?? '', ...(job.stripeChargeId ? { chargeId: job.stripeChargeId } : {}) },
  ...(job.topUps ?? []),
];

/** The payment intents of the job's charges, oldest first: what a decision's context names them by (intentOfCall). */
export const chargeIntentsOf = (job: Pick<JobItem, 'stripePaymentIntentId' | 'stripeChargeId' | 'topUps'>): string[] => chargesOf(job).map((charge) => charge.paymentIntentId);

/** A charge's id: kept on the job, or (jobs paid before it was kept) read from its payment intent. */
export const chargeIdOf = async (charge: JobCharge): Promise<string | undefined> => charge.chargeId ?? (await retrieveIntent(charge.paymentIntentId)).chargeId;

/** The name of a call on the job's `index`-th charge: the payment's keeps the plain name. */
export const callOn = (name: string, index: number): string => (index === 0 ? name : `${name}:${index + 1}`);

/** The charge a call is on (the inverse of callOn). */
export const chargeIndexOf = (call: string): number => {
  const suffix = /:(\d+)$/.exec(call);
  return suffix ? Number(suffix[1]) - 1 : 0;
};

/** A charge with what is left of it at Stripe (its amount less its refunds), and whether its bank disputed it. */
export type ChargeRest = JobCharge & { chargeId: string; rest: number; disputed: boolean };

/**
 * What is left of each of the job's charges at Stripe, read before a decision spans them. A job
 * of one charge reads nothing: its calls are those of before, which need no amounts (a refund of
 * the rest, a transfer Stripe bounds by the charge).
 */
export async function chargeRests(job: Pick<JobItem, 'stripePaymentIntentId' | 'stripeChargeId' | 'topUps'>): Promise<ChargeRest[] | undefined> {
  if (!job.topUps?.length) return undefined;
  const client = await stripe();
  return Promise.all(
    chargesOf(job).map(async (charge) => {
      const chargeId = (await chargeIdOf(charge)) ?? '';
      const found = await client.charges.retrieve(chargeId);
      return { ...charge, chargeId, rest: found.amount - found.amount_refunded, disputed: found.disputed };
    }),
  );
}

/** `amount` taken from the charges, the oldest or the newest first, each up to `limit` of it: the parts by charge index. */
export function allocate(amount: number, charges: ReadonlyArray<{ rest: number }>, order: 'oldest' | 'newest', limit: (index: number) => number = (index) => charges[index]!.rest): Array<{ index: number; amount: number }> {
  const indexes = charges.map((_, index) => index);
  if (order === 'newest') indexes.reverse();
  const parts: Array<{ index: number; amount: number }> = [];
  let left = amount;
  for (const index of indexes) {
    const part = Math.min(left, limit(index));
    if (part > 0) parts.push({ index, amount: part });
    left -= part;
  }
  return parts.sort((a, b) => a.index - b.index);
}

/** Every result of a decision's calls named `name` on any charge, with the charge each was on. */
export function resultsOn<Kind extends MoveResult['kind']>(results: Record<string, MoveResult>, name: string, kind: Kind): Array<{ call: string; index: number; result: Extract<MoveResult, { kind: Kind }> }> {
  return Object.entries(results)
    .filter(([call, result]) => (call === name || call.startsWith(`${name}:`)) && result.kind === kind)
    .map(([call, result]) => ({ call, index: chargeIndexOf(call), result: result as Extract<MoveResult, { kind: Kind }> }))
    .sort((a, b) => a.index - b.index);
}

export const sumOf = (parts: ReadonlyArray<{ result: { amount: number } }>): number => parts.reduce((total, part) => total + part.result.amount, 0);

/** The payment intent of the charge a call was on, from the decision's charges (decisions of before name only their payment's). */
export const intentOfCall = (context: { paymentIntentId: string; charges?: string[] }, index: number): string => context.charges?.[index] ?? context.paymentIntentId;
