import type { EventBridgeEvent } from 'aws-lambda';
import type Stripe from 'stripe';
import { getDecision, movementIdOf } from '../decision.js';
import { carryOutQuietly } from '../executor.js';
import { settleMovement } from '../ledger.js';
import { logger, withLogContext } from '../../lib/logger.js';

/**
 * `transfer.created`: the transfer of one of the money process's decisions (its metadata names
 * it). Should the call that made it have died after Stripe's answer, the decision is still
 * pending: this carries it out (the transfer is made once, by its key) and settles it; then the
 * ledger's movement is marked confirmed by Stripe. A transfer the process never decided is left
 * for reconciliation to report.
 */
async function handle(event: EventBridgeEvent<string, Stripe.Event>): Promise<void> {
  const transfer = event.detail.data.object as Stripe.Transfer;
  const decisionId = transfer.metadata?.decision;
  if (!decisionId) return void logger.warn('transfer not made by the money process', { transferId: transfer.id });
  await carryOutQuietly(decisionId);
  const decision = await getDecision(decisionId);
  if (decision && transfer.metadata?.call) await settleMovement(decision.scope, movementIdOf(decision, transfer.metadata.call), transfer.id);
}

export const handler = withLogContext(handle);
