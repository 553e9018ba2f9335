import { ledgerAccount } from '../../shared/ledger.js';
import { MSG } from '../../shared/messages.js';
import { tableName } from '../lib/db.js';
import { conflict } from '../lib/errors.js';
import { keys } from '../table.js';
import { adminActionPut, SYSTEM_ACTOR } from '../lib/admin-actions.js';
import { movementPut, workerScope } from './ledger.js';
import { movementIdOf, resultOf, type Plan } from './decision.js';

export interface PayoutContext {
  workerId: string;
  requestKey: string;
  amount: number;
}

/** The ledger ids of a payout's movements (its webhook's failure returns them by the same names). */
export const payoutMovementIds = (decision: { id: string }) => ({
  payout: movementIdOf(decision, 'payout'),
  fee: movementIdOf(decision, 'payout_fee'),
  returned: movementIdOf(decision, 'payout_return'),
  feeReturned: movementIdOf(decision, 'payout_fee_return'),
});

/**
 * An Instant Payout (functions/money/instant-payouts.ts): settled with Stripe's payout id and fee
 * on the worker's record and the payout and its fee in the ledger — both leave the worker's
 * balance — with the audit entry. Its status is left to Stripe's webhook (payout.paid or
 * payout.failed), which may come first. Stripe's refusal (the card takes no Instant Payouts, the
 * balance cannot pay amount and fee) removes the claim: nothing was paid out.
 */
export const payoutPlan: Plan<PayoutContext> = {
  async settle(decision, results) {
    const payout = resultOf(results, 'payout', 'payout');
    const { workerId, requestKey } = decision.context;
    const ids = payoutMovementIds(decision);
    const scope = workerScope(workerId);
    return [
      {
        Update: {
          TableName: tableName(),
          Key: keys.instantPayout(workerId, requestKey),
          UpdateExpression: 'SET fee = :fee, payoutId = :payout',
          ConditionExpression: 'decisionId = :decision',
          ExpressionAttributeValues: { ':fee': payout.fee, ':payout': payout.id, ':decision': decision.id },
        },
      },
      ...movementPut({ scope, movementId: ids.payout, kind: 'payout', from: ledgerAccount.worker(workerId), to: ledgerAccount.bank(workerId), amount: payout.amount, stripe: { kind: 'payout', id: payout.id } }),
      ...movementPut({ scope, movementId: ids.fee, kind: 'payout_fee', from: ledgerAccount.worker(workerId), to: ledgerAccount.stripeFees(), amount: payout.fee, settled: true }),
      adminActionPut({
        adminId: SYSTEM_ACTOR,
        actionType: 'instant_payout',
        targetType: 'user',
        targetId: workerId,
        details: { payoutId: payout.id, amount: payout.amount, fee: payout.fee, requestKey },
        reason: 'Instant payout requested by the worker',
      }),
    ];
  },
  async rollBack(decision, refusal) {
    const { workerId, requestKey } = decision.context;
    const answer =
      refusal.code === 'instant_payouts_unsupported' ? conflict(MSG.payouts.notEligible) : refusal.code === 'balance_insufficient' ? conflict(MSG.payouts.overBalance) : conflict(MSG.payouts.failed);
    return {
      items: [{ Delete: { TableName: tableName(), Key: keys.instantPayout(workerId, requestKey), ConditionExpression: 'decisionId = :decision', ExpressionAttributeValues: { ':decision': decision.id } } }],
      answer,
    };
  },
};
