/**
 * The money ledger's vocabulary (issue 34, DECISIONS.md "Wave 4"): every movement of money is
 * one balanced pair of entries — `amount` leaves `from` and enters `to` — so all entries sum
 * to zero by construction. The server writes a movement in the same DynamoDB transaction as
 * the state change that causes it (functions/money/ledger.ts); reconciliation compares the
 * movements that name a Stripe object with Stripe's own records.
 */

/** What moved the money. */
export const LEDGER_MOVEMENTS = [
  /** The poster's card pays payment + fee into the job's escrow. */
  'charge',
  /** The platform's fee leaves escrow for the platform when the worker is paid. */
  'platform_fee',
  /** Stripe's card fee, paid by the platform out of its revenue. */
  'card_fee',
  /** A Stripe transfer from escrow to the worker's connected account. */
  'transfer',
  /** A Stripe refund from escrow back to the poster's card. */
  'refund',
  /** A Stripe transfer reversal: the worker's balance back into escrow (then refunded). */
  'reversal',
  /** The platform's fee back into escrow, when a reversal refunds the poster in full. */
  'fee_return',
  /** A tip charged to the poster's card into escrow... */
  'tip_charge',
  /** ...and transferred to the worker in full. */
  'tip_transfer',
  /** A tip refunded to the poster: its charge succeeded after the job's money was reversed or its worker left. */
  'tip_refund',
  /** An Instant Payout from the worker's connected balance to their debit card... */
  'payout',
  /** ...Stripe's Instant Payout fee, also taken from the worker's balance... */
  'payout_fee',
  /** ...and the money (payout and fee) back when the payout failed. */
  'payout_return',
  'payout_fee_return',
  /** The poster's bank took the payment back (a chargeback)... */
  'chargeback',
  /** ...with Stripe's dispute fee, which the platform pays... */
  'chargeback_fee',
  /** ...and returned it when the platform won (with the fee, where Stripe returns it). */
  'chargeback_reversal',
  'chargeback_fee_return',
  /**
   * The platform's own money into a job's escrow, to pay what Stripe moved beyond what the escrow
   * held (a chargeback or a dashboard refund after the worker was paid): its loss.
   */
  'platform_loss',
  /** A loss paid back: the bank returned a chargeback the platform had covered. */
  'loss_recovered',
  /**
   * What a reversal could not take back from the worker (they cashed it out): the worker's
   * account goes below zero by it, their debt, and the platform paid the poster without it.
   */
  'unrecovered',
] as const;
export type LedgerMovementKind = (typeof LEDGER_MOVEMENTS)[number];

/** Named accounts: the parties' outside money, the job's escrow, the platform's books. */
export const ledgerAccount = {
  card: (posterId: string) => `card:${posterId}`,
  escrow: (jobId: string) => `escrow:${jobId}`,
  worker: (workerId: string) => `worker:${workerId}`,
  bank: (workerId: string) => `bank:${workerId}`,
  revenue: () => 'platform:revenue',
  stripeFees: () => 'stripe:fees',
} as const;

/** The Stripe object a movement corresponds to, for reconciliation. */
export interface StripeObjectRef {
  /** `dispute_funds`: a chargeback's balance transaction (the bank's withdrawal, or its reinstatement). */
  kind: 'payment_intent' | 'refund' | 'transfer' | 'transfer_reversal' | 'payout' | 'dispute_funds';
  id: string;
}

/** One movement as stored and read. */
export interface LedgerMovement {
  /** The scope the movement belongs to: `job:<jobId>` or `worker:<workerId>` (payouts). */
  scope: string;
  /**
   * Unique within its scope and deterministic, so a movement is written once: a decision's
   * `<decision>:<name>` (functions/money/executor.ts), a move Stripe made on its own by
   * the Stripe object's id (`refund:re_…`); `charge`, `card_fee` for the job's payment.
   */
  movementId: string;
  kind: LedgerMovementKind;
  from: string;
  to: string;
  /** Positive integer cents. */
  amount: number;
  stripe?: StripeObjectRef;
  /** On a charge: the part of it that is the platform's fee (it leaves escrow only when the worker is paid; the money overview counts it when taken). */
  platformFee?: number;
  at: string;
  /** When Stripe confirmed it (its webhook); absent while only our call's answer vouches for it. */
  settledAt?: string;
}

/** GET /admin/jobs/{id}/ledger: where every cent of one job is. */
export interface JobLedger {
  jobId: string;
  movements: LedgerMovement[];
  /** Each account the job's movements touch, with its balance from them (cents). */
  balances: Record<string, number>;
  position: JobMoneyPosition;
}

/** The balance of every account a set of movements touches: what entered minus what left. */
export function balances(movements: ReadonlyArray<Pick<LedgerMovement, 'from' | 'to' | 'amount'>>): Map<string, number> {
  const result = new Map<string, number>();
  for (const { from, to, amount } of movements) {
    result.set(from, (result.get(from) ?? 0) - amount);
    result.set(to, (result.get(to) ?? 0) + amount);
  }
  return result;
}

/** How one job's money stands by the ledger: what came in, what went out, what is still held. */
export interface JobMoneyPosition {
  /** Card charges (job payment and tip). */
  moneyIn: number;
  /** Refunds + transfers − reversals, and what the poster's bank took back and kept. */
  moneyOut: number;
  /** What the escrow holds (in − out − the platform's fee once taken). */
  escrow: number;
  platformFee: number;
  /** What the platform put in beyond what the job took (platform_loss, unrecovered): its loss on the job. */
  loss: number;
}

export function jobMoneyPosition(jobId: string, movements: ReadonlyArray<Pick<LedgerMovement, 'kind' | 'from' | 'to' | 'amount'>>): JobMoneyPosition {
  const sum = (kinds: LedgerMovementKind[]) => movements.filter((move) => kinds.includes(move.kind)).reduce((total, move) => total + move.amount, 0);
  return {
    moneyIn: sum(['charge', 'tip_charge']),
    moneyOut: sum(['refund', 'tip_refund', 'transfer', 'tip_transfer', 'chargeback']) - sum(['reversal', 'chargeback_reversal']),
    escrow: balances(movements).get(ledgerAccount.escrow(jobId)) ?? 0,
    platformFee: sum(['platform_fee']) - sum(['fee_return']),
    loss: sum(['platform_loss', 'unrecovered']) - sum(['loss_recovered']),
  };
}

/**
 * The ledger's invariants for one job (issue 34): the escrow is never negative, money out never
 * exceeds money in — but for what the platform recorded as its loss (a move Stripe made on its
 * own after the worker was paid, a reversal the worker's balance could not cover), which
 * reconciliation reports. Answers what is broken (empty when all hold).
 */
export function jobInvariantProblems(jobId: string, movements: ReadonlyArray<Pick<LedgerMovement, 'kind' | 'from' | 'to' | 'amount'>>): string[] {
  const problems: string[] = [];
  // The escrow must hold at every point of the job's history, not only at its end.
  for (let i = 1; i <= movements.length; i++) {
    const escrow = balances(movements.slice(0, i)).get(ledgerAccount.escrow(jobId)) ?? 0;
    if (escrow < 0) {
      problems.push(`escrow of job ${jobId} negative (${escrow}) after ${movements[i - 1]?.kind}`);
      break;
    }
  }
  const position = jobMoneyPosition(jobId, movements);
  if (position.moneyOut > position.moneyIn + position.loss) problems.push(`job ${jobId} paid out ${position.moneyOut} of ${position.moneyIn} taken in`);
  return problems;
}
