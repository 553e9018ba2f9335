import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AdminDispute, BulkResolveResult, Dispute, DisputeMoneyOutcome, Page } from '../../shared/api.js';
import { moneyStateOf } from '../../shared/job-process.js';
import { heldAmount } from '../../shared/money.js';
import type { ResolveDisputeRequest } from '../../shared/schemas/dispute.js';
import { JOB_EVENT } from '../routes.js';
import { resumedReleaseTime } from '../money/auto-release.js';
import { jobEvent } from '../jobs/job-events.js';
import { adminRefundJob, releasePayment, splitJobMoney } from '../money/job-money.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { ADMIN_DISPUTES_PAGE, isDisputeOpen, type AdminDisputeView, type DisputePriority } from '../../shared/disputes.js';
import { MSG } from '../../shared/messages.js';
import { db, decodeCursor, encodeCursor, tableName } from '../lib/db.js';
import { logger } from '../lib/logger.js';
import { HttpError, conflict, notFound } from '../lib/errors.js';
import { TransactionRefused, retryLostRaces, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { adminActionItem } from '../lib/admin-actions.js';
import { getResolutionTemplate } from './dispute-templates.js';
import { disputeResolvedWrites, type DisputeActionType, type DisputeResolution } from './dispute-resolution.js';
import { adminIndexKeys, getDisputeItem, toDispute, type DisputeChange, type DisputeItem } from './disputes.js';
import { MoneyRefused, carryOut } from '../money/executor.js';
import { profileNames } from '../people/profiles.js';

const putAdminAction = (adminId: string, actionType: DisputeActionType, disputeId: string, details: Record<string, unknown>, reason = '') => ({
  Put: { TableName: tableName(), Item: adminActionItem({ adminId, actionType, targetType: 'dispute', targetId: disputeId, details, reason }) },
});

/** The admin's list of one view (open or resolved), by priority weight then newest, 50 a page, with the parties' names. */
export async function listAdminDisputes(view: AdminDisputeView, cursor?: string): Promise<Page<AdminDispute>> {
  const startKey = decodeCursor(cursor, { index: 'GSI3', partition: keys.disputesByStatus(view) });
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI3',
      KeyConditionExpression: 'gsi3pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.disputesByStatus(view) },
      ScanIndexForward: false,
      Limit: ADMIN_DISPUTES_PAGE,
      ExclusiveStartKey: startKey,
    }),
  );
  const disputes = (Items as DisputeItem[]).map(toDispute);
  const names = await profileNames(disputes.flatMap((dispute) => [dispute.reporterId, dispute.reportedId]));
  return {
    items: disputes.map((dispute) => ({ ...dispute, reporterName: names.get(dispute.reporterId) ?? null, reportedName: names.get(dispute.reportedId) ?? null })),
    nextCursor: encodeCursor(LastEvaluatedKey),
  };
}

async function requireDispute(disputeId: string): Promise<DisputeItem> {
  const dispute = await getDisputeItem(disputeId, true);
  if (!dispute) throw notFound(MSG.disputes.notFound);
  return dispute;
}

/** The admin sets a dispute's priority; its place in the admin's list moves with it (the sort key). */
export async function setDisputePriority(disputeId: string, adminId: string, priority: DisputePriority): Promise<Dispute> {
  return retryLostRaces(async () => {
    const before = await requireDispute(disputeId);
    const updated: Dispute = { ...toDispute(before), priority, updatedAt: new Date().toISOString() };
    const { gsi3sk } = adminIndexKeys(updated);
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.dispute(disputeId),
            UpdateExpression: 'SET priority = :priority, gsi3sk = :sk, updatedAt = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':priority': priority, ':sk': gsi3sk, ':now': updated.updatedAt },
          },
        },
        putAdminAction(adminId, 'set_dispute_priority', disputeId, { from: before.priority, to: priority }),
      ]);
    } catch (error) {
      if (error instanceof TransactionRefused) throw notFound(MSG.disputes.notFound);
      throw error;
    }
    return updated;
  });
}

interface Resolution {
  text: string;
  templateId: string | null;
  actionType: DisputeActionType;
  bulkActionId?: string;
  /** What the resolution decides of the job's held money (none: the auto-release is given back). */
  money?: MoneyDecision;
}

type MoneyDecision = NonNullable<ResolveDisputeRequest['money']>;

/**
 * Decides the job's held money as the resolution says (shared/job-process.ts: release, refund or
 * split, each the executor's decision, refused when the money moved already), with the dispute's
 * claim in the same transaction: of two resolutions at once, the one that wins the claim moves
 * the money and resolves the dispute when its settlement is written (dispute-resolution.ts).
 */
async function resolveWithMoney(resolution: DisputeResolution, money: MoneyDecision): Promise<DisputeMoneyOutcome> {
  const job = await getJob(resolution.dispute.jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  if (money.decision === 'release') {
    const { job: paid } = await releasePayment(job.id, resolution.adminId, { admin: { reason: resolution.text }, dispute: resolution });
    return { decision: 'release', toWorker: paid.transferredAmount ?? paid.payment, refunded: 0 };
  }
  if (money.decision === 'refund') {
    const { job: refunded } = await adminRefundJob(job, resolution.text, resolution.adminId, resolution);
    return { decision: 'refund', toWorker: 0, refunded: heldAmount(refunded) };
  }
  const split = await splitJobMoney(job, money.toWorker, resolution);
  return { decision: 'split', toWorker: money.toWorker, refunded: split.splitRefunded ?? 0 };
}

/**
 * A resolution that decides no money gives a completed job's auto-release back (Wave 4) when it
 * was the last dispute open on the job (Wave 5): at the earliest the minimum from now, unless the
 * poster paused it. Either way the job has one dispute fewer open. One update, for the dispute's
 * transaction.
 */
async function jobAfterResolution(jobId: string): Promise<TransactItem[]> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) return [];
  const lastOpen = (job.openDisputes ?? 1) <= 1;
  const givesBack = lastOpen && job.status === 'completed' && moneyStateOf(job) === 'held' && !job.autoReleaseAt && !job.autoReleasePausedAt;
  const resumed: JobItem = { ...job, autoReleaseAt: resumedReleaseTime(undefined), autoReleaseReminders: undefined };
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.job(job.id),
        UpdateExpression: `${givesBack ? 'SET autoReleaseAt = :at REMOVE autoReleaseReminders ' : ''}ADD openDisputes :less`,
        // The count read: a dispute filed meanwhile makes this one run again (it may no longer be the last).
        ConditionExpression: givesBack
          ? '#status = :completed AND attribute_not_exists(autoReleaseAt) AND attribute_not_exists(autoReleasePausedAt) AND (attribute_not_exists(openDisputes) OR openDisputes <= :one)'
          : 'attribute_exists(pk)',
        ...(givesBack ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
        ExpressionAttributeValues: { ':less': -1, ...(givesBack ? { ':at': resumed.autoReleaseAt, ':completed': 'completed', ':one': 1 } : {}) },
      },
    },
    ...(givesBack ? [jobEvent(JOB_EVENT.updated, resumed, 'autoReleaseScheduled')] : []),
  ];
}

/**
 * Resolves one open dispute, once. Without money: the dispute's update conditional on it being
 * open with no resolution under way, its audit row, the notices to both parties and the job's
 * count of open disputes, in one transaction. With money: the executor's decision claims the
 * dispute, and its settlement resolves it; a resolution already under way is finished, not
 * decided again.
 */
async function resolveOne(disputeId: string, adminId: string, resolution: Resolution): Promise<DisputeChange> {
  const open = await requireDispute(disputeId);
  if (!isDisputeOpen(open.status)) throw conflict(MSG.disputes.alreadyResolved);
  if (open.resolvingDecisionId) {
    await carryOut(open.resolvingDecisionId).catch((error: unknown) => {
      throw error instanceof MoneyRefused ? error.answer : error;
    });
    throw conflict(MSG.disputes.alreadyResolved);
  }
  const chosen: DisputeResolution = {
    dispute: toDispute(open),
    text: resolution.text,
    adminId,
    templateId: resolution.templateId,
    actionType: resolution.actionType,
    ...(resolution.bulkActionId ? { bulkActionId: resolution.bulkActionId } : {}),
  };
  if (resolution.money) {
    let moneyOutcome: DisputeMoneyOutcome;
    try {
      moneyOutcome = await resolveWithMoney(chosen, resolution.money);
    } catch (error) {
      // Another resolution claimed the dispute first: its money is the dispute's, this one is refused.
      const now = await requireDispute(disputeId);
      if (!isDisputeOpen(now.status) || (now.resolvingDecisionId && error instanceof HttpError && error.status === 409)) throw conflict(MSG.disputes.alreadyResolved);
      throw error;
    }
    // Its notices went out with the settlement that resolved it.
    const resolved = await requireDispute(disputeId);
    return { dispute: { ...toDispute(resolved), moneyOutcome }, notifications: [] };
  }
  return retryWhileStale(async () => {
    const { items, dispute, notifications } = disputeResolvedWrites(chosen, undefined);
    try {
      await transactWrite([...items, ...(await jobAfterResolution(chosen.dispute.jobId))]);
    } catch (error) {
      if (error instanceof TransactionRefused && error.failed(0)) throw conflict(MSG.disputes.alreadyResolved);
      throw error;
    }
    return { dispute, notifications };
  });
}

async function templateText(templateId: string) {
  const template = await getResolutionTemplate(templateId);
  if (!template) throw notFound(MSG.disputes.templateNotFound);
  return template.resolutionText;
}

/** The admin resolves one dispute with a template or their own text (spec 2 §4). */
export async function resolveDispute(disputeId: string, adminId: string, input: ResolveDisputeRequest): Promise<DisputeChange> {
  const resolution: Resolution = input.templateId
    ? { text: await templateText(input.templateId), templateId: input.templateId, actionType: 'resolve_dispute_with_template', money: input.money }
    : { text: input.resolution ?? '', templateId: null, actionType: 'update_dispute', money: input.money };
  return resolveOne(disputeId, adminId, resolution);
}

/** How many disputes of a bulk resolution are resolved at once. */
const BULK_CONCURRENCY = 8;

/**
 * The admin resolves a selection by template (spec 2 §4). Each dispute is resolved at most once
 * (its own conditional transaction, with its own audit row); the outcome is reported per
 * dispute, and the bulk action is recorded once (dispute_bulk_actions) with what it did.
 */
export async function bulkResolveDisputes(
  disputeIds: string[],
  adminId: string,
  templateId: string,
): Promise<BulkResolveResult> {
  const text = await templateText(templateId);
  const bulkActionId = randomUUID();
  const resolved: string[] = [];
  const failed: BulkResolveResult['failed'] = [];
  const queue = [...disputeIds];
  const worker = async () => {
    for (let disputeId = queue.shift(); disputeId !== undefined; disputeId = queue.shift()) {
      try {
        await resolveOne(disputeId, adminId, { text, templateId, actionType: 'bulk_resolve_disputes', bulkActionId });
        resolved.push(disputeId);
      } catch (error) {
        // One dispute's failure is reported with it; the others still go through.
        if (!(error instanceof HttpError)) logger.error('bulk resolution failed for a dispute', { disputeId, error });
        failed.push({ disputeId, error: error instanceof HttpError ? error.message : MSG.backend.unexpected });
      }
    }
  };
  await Promise.all(Array.from({ length: BULK_CONCURRENCY }, worker));
  // Answered in the order the admin selected them (they finish in any order).
  const position = new Map(disputeIds.map((id, i) => [id, i]));
  const byPosition = (a: string, b: string) => position.get(a)! - position.get(b)!;
  resolved.sort(byPosition);
  failed.sort((a, b) => byPosition(a.disputeId, b.disputeId));
  await db.send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.disputeBulkAction(bulkActionId),
        type: 'disputeBulkAction',
        id: bulkActionId,
        adminId,
        actionType: 'resolve_with_template',
        disputeIds,
        resolvedIds: resolved,
        resolutionTemplateId: templateId,
        createdAt: new Date().toISOString(),
      },
    }),
  );
  return { bulkActionId, resolved, failed };
}
