import type { Dispute, DisputeMoneyOutcome } from '../../shared/api.js';
import { disputeResolutionMessage } from '../../shared/disputes.js';
import { MSG } from '../../shared/messages.js';
import { tableName } from '../lib/db.js';
import type { TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { adminActionItem } from '../lib/admin-actions.js';
import { adminIndexKeys, stillOpen } from './disputes.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';

/** The action types of spec 2 §7 a resolution is recorded under. */
export type DisputeActionType = 'update_dispute' | 'resolve_dispute_with_template' | 'bulk_resolve_disputes' | 'set_dispute_priority';

/**
 * A resolution of one dispute as the admin chose it: what the dispute's own writes need, kept on
 * the money decision that carries a resolution's money out (functions/money/job-plans.ts),
 * so whoever settles the decision resolves the dispute with it.
 */
export interface DisputeResolution {
  dispute: Dispute;
  text: string;
  adminId: string;
  templateId: string | null;
  actionType: DisputeActionType;
  bulkActionId?: string;
}

/**
 * The claim of a resolution that decides money: the dispute still open and no other resolution
 * under way, marked with the decision, in the transaction that decides the money (Wave 5: the
 * resolution that wins this condition is the one whose money moves).
 */
export function disputeClaimed(resolution: DisputeResolution, decisionId: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.dispute(resolution.dispute.id),
      UpdateExpression: 'SET resolvingDecisionId = :decision',
      ConditionExpression: `${stillOpen.ConditionExpression} AND attribute_not_exists(resolvingDecisionId)`,
      ExpressionAttributeNames: stillOpen.ExpressionAttributeNames,
      ExpressionAttributeValues: { ...stillOpen.ExpressionAttributeValues, ':decision': decisionId },
    },
  };
}

/** Stripe refused the resolution's money: the dispute is open again, for another resolution. */
export function disputeHandedBack(resolution: DisputeResolution, decisionId: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.dispute(resolution.dispute.id),
      UpdateExpression: 'REMOVE resolvingDecisionId',
      ConditionExpression: 'resolvingDecisionId = :decision',
      ExpressionAttributeValues: { ':decision': decisionId },
    },
  };
}

/**
 * A resolution's own writes, once: the dispute resolved (with what its money did), its audit
 * entry and the notice to both parties with the amounts that moved. Without a decision it is
 * conditional on the dispute still open and unclaimed; a decision's settlement, on its claim.
 */
export function disputeResolvedWrites(resolution: DisputeResolution, moneyOutcome: DisputeMoneyOutcome | undefined, decisionId?: string): { items: TransactItem[]; dispute: Dispute; notifications: StoredNotification[] } {
  const now = new Date().toISOString();
  const base = resolution.dispute;
  const notifications = [base.reporterId, base.reportedId].map((userId) =>
    notificationItem({
      userId,
      jobId: base.jobId,
      type: 'dispute_update',
      title: MSG.disputes.resolvedTitle,
      message: disputeResolutionMessage(base.jobTitle, moneyOutcome),
      metadata: { disputeId: base.id, jobTitle: base.jobTitle },
    }),
  );
  const details = {
    resolution: resolution.text,
    ...(resolution.templateId ? { templateId: resolution.templateId } : {}),
    ...(resolution.bulkActionId ? { bulkActionId: resolution.bulkActionId } : {}),
    ...(moneyOutcome ? { moneyOutcome } : {}),
  };
  const resolved = { status: 'resolved' as const, resolution: resolution.text, resolvedBy: resolution.adminId, resolvedAt: now, updatedAt: now, ...(moneyOutcome ? { moneyOutcome } : {}) };
  const condition = decisionId
    ? { ConditionExpression: 'resolvingDecisionId = :decision', ExpressionAttributeValues: { ':decision': decisionId } }
    : { ConditionExpression: `${stillOpen.ConditionExpression} AND attribute_not_exists(resolvingDecisionId)`, ExpressionAttributeValues: stillOpen.ExpressionAttributeValues };
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.dispute(base.id),
        UpdateExpression: `SET #status = :resolved, resolution = :text, resolvedBy = :admin, resolvedAt = :now, updatedAt = :now, gsi3pk = :pk${moneyOutcome ? ', moneyOutcome = :money' : ''} REMOVE resolvingDecisionId`,
        ConditionExpression: condition.ConditionExpression,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ...condition.ExpressionAttributeValues,
          ':resolved': 'resolved',
          ':text': resolution.text,
          ':admin': resolution.adminId,
          ':now': now,
          ':pk': adminIndexKeys({ ...base, status: 'resolved' }).gsi3pk,
          ...(moneyOutcome ? { ':money': moneyOutcome } : {}),
        },
      },
    },
    { Put: { TableName: tableName(), Item: adminActionItem({ adminId: resolution.adminId, actionType: resolution.actionType, targetType: 'dispute', targetId: base.id, details, reason: '' }) } },
    ...notifications.flatMap(notificationWrites),
  ];
  return { items, dispute: { ...base, ...resolved }, notifications };
}
