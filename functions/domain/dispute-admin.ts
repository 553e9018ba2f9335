import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AdminDispute, BulkResolveResult, Dispute, DisputeMoneyOutcome, Page } from '../../shared/api.js';
import { moneyStateOf } from '../../shared/job-process.js';
import type { ResolveDisputeRequest } from '../../shared/schemas/dispute.js';
import { JOB_EVENT } from '../routes.js';
import { resumedReleaseTime } from './auto-release.js';
import { jobEvent } from './events.js';
import { adminRefundJob, releasePayment, splitJobMoney } from './job-money.js';
import { getJob, type JobItem } from './jobs.js';
import { ADMIN_DISPUTES_PAGE, disputeResolutionMessage, type AdminDisputeView, type DisputePriority } from '../../shared/disputes.js';
import { MSG } from '../../shared/messages.js';
import { db, decodeCursor, encodeCursor, tableName } from '../lib/db.js';
import { logger } from '../lib/logger.js';
import { HttpError, conflict, notFound } from '../lib/errors.js';
import { TransactionRefused, retryLostRaces, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys } from '../table.js';
import { adminActionItem } from './admin-actions.js';
import { getResolutionTemplate } from './dispute-templates.js';
import { adminIndexKeys, getDisputeItem, stillOpen, toDispute, type DisputeChange, type DisputeItem } from './disputes.js';
import { notificationItem, notificationWrites } from './notifications.js';
import { profileNames } from './profiles.js';

/** The action types of spec 2 §7 this module records. */
type DisputeActionType = 'update_dispute' | 'resolve_dispute_with_template' | 'bulk_resolve_disputes' | 'set_dispute_priority';

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
 * split, each the process's own exactly-once step, refused when the money moved already), and
 * answers what moved. Run before the dispute's own transaction: a resolution retried after a
 * failure finds the money decided and goes on to resolve.
 */
async function decideDisputeMoney(jobId: string, adminId: string, text: string, money: MoneyDecision): Promise<DisputeMoneyOutcome> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job) throw notFound(MSG.jobs.notFound);
  if (money.decision === 'release') {
    const { job: paid } = await releasePayment(job.id, adminId, { admin: { reason: text } });
    return { decision: 'release', toWorker: paid.payment, refunded: 0 };
  }
  if (money.decision === 'refund') {
    const { job: refunded } = await adminRefundJob(job, text, adminId);
    return { decision: 'refund', toWorker: 0, refunded: refunded.postedAmount };
  }
  const split = await splitJobMoney(job, money.toWorker, []);
  return { decision: 'split', toWorker: money.toWorker, refunded: split.postedAmount - money.toWorker };
}

/**
 * A resolution that decides no money gives a completed job's auto-release back (Wave 4): at the
 * earliest the minimum from now, unless the poster paused it, for the dispute's transaction.
 */
async function autoReleaseGivenBack(jobId: string): Promise<TransactItem[]> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job || job.status !== 'completed' || moneyStateOf(job) !== 'held' || job.autoReleaseAt || job.autoReleasePausedAt) return [];
  const resumed: JobItem = { ...job, autoReleaseAt: resumedReleaseTime(undefined), autoReleaseReminders: undefined };
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.job(job.id),
        UpdateExpression: 'SET autoReleaseAt = :at REMOVE autoReleaseReminders',
        ConditionExpression: '#status = :completed AND attribute_not_exists(autoReleaseAt) AND attribute_not_exists(autoReleasePausedAt)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':at': resumed.autoReleaseAt, ':completed': 'completed' },
      },
    },
    jobEvent(JOB_EVENT.updated, resumed, 'autoReleaseScheduled'),
  ];
}

/**
 * Resolves one open dispute, once: the update's condition that it is still open makes a
 * second resolution (or a racing bulk one) fail instead of overwrite. The audit row and the
 * notices to both parties are in the same transaction.
 */
async function resolveOne(disputeId: string, adminId: string, resolution: Resolution): Promise<DisputeChange> {
  const open = await requireDispute(disputeId);
  if (open.status === 'resolved') throw conflict(MSG.disputes.alreadyResolved);
  const moneyOutcome = resolution.money ? await decideDisputeMoney(open.jobId, adminId, resolution.text, resolution.money) : undefined;
  return retryLostRaces(async () => {
    const before = await requireDispute(disputeId);
    const now = new Date().toISOString();
    const dispute: Dispute = { ...toDispute(before), status: 'resolved', resolution: resolution.text, resolvedBy: adminId, resolvedAt: now, updatedAt: now, ...(moneyOutcome ? { moneyOutcome } : {}) };
    const givenBack = moneyOutcome ? [] : await autoReleaseGivenBack(dispute.jobId);
    const notifications = [dispute.reporterId, dispute.reportedId].map((userId) =>
      notificationItem({
        userId,
        jobId: dispute.jobId,
        type: 'dispute_update',
        title: MSG.disputes.resolvedTitle,
        message: disputeResolutionMessage(dispute.jobTitle, moneyOutcome),
        metadata: { disputeId, jobTitle: dispute.jobTitle },
      }),
    );
    const details = {
      resolution: resolution.text,
      ...(resolution.templateId ? { templateId: resolution.templateId } : {}),
      ...(resolution.bulkActionId ? { bulkActionId: resolution.bulkActionId } : {}),
      ...(moneyOutcome ? { moneyOutcome } : {}),
    };
    try {
      await transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.dispute(disputeId),
            UpdateExpression: `SET #status = :resolved, resolution = :text, resolvedBy = :admin, resolvedAt = :now, updatedAt = :now, gsi3pk = :pk${moneyOutcome ? ', moneyOutcome = :money' : ''}`,
            ...stillOpen,
            ExpressionAttributeValues: {
              ...stillOpen.ExpressionAttributeValues,
              ':resolved': 'resolved',
              ':text': resolution.text,
              ':admin': adminId,
              ':now': now,
              ':pk': adminIndexKeys(dispute).gsi3pk,
              ...(moneyOutcome ? { ':money': moneyOutcome } : {}),
            },
          },
        },
        putAdminAction(adminId, resolution.actionType, disputeId, details),
        ...notifications.flatMap(notificationWrites),
        ...givenBack,
      ]);
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
