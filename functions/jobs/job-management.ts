import { TIP_IN_FLIGHT, canPerform, moneyStateOf, type JobAction } from '../../shared/job-process.js';
import { MSG } from '../../shared/messages.js';
import type { CreateJobRequest } from '../../shared/schemas/job.js';
import { batchWrite } from '../lib/batch.js';
import { queryAll, tableName } from '../lib/db.js';
import { HttpError, badRequest, notFound } from '../lib/errors.js';
import { transactOrConflict, type TransactItem } from '../lib/transactions.js';
import { JOB_EVENT, type JobChange } from '../routes.js';
import { keys } from '../table.js';
import { adminActionPut } from '../lib/admin-actions.js';
import { settleUnreadBeforeDelete } from '../chat/conversations.js';
import { jobEvent } from './job-events.js';
import { jobTransition, type TransitionAction } from './job-transitions.js';
import { getJob, jobFieldsOf, type JobItem } from './jobs.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { decideRefund, deletingRefund, voidDecision } from '../money/job-money.js';
import { carryOutQuietly } from '../money/executor.js';
import { decisionPut, type MoneyDecision } from '../money/decision.js';
import { requirePostableCategory } from '../admin/categories.js';

type Verb = 'update' | 'cancel' | 'unassign' | 'delete';

/** Why a poster's action on a job is refused, with the spec's texts. */
const WRONG_STATUS: Record<Verb, string> = {
  update: MSG.jobs.onlyOpenEditable,
  cancel: MSG.jobs.onlyAssignedCancel,
  unassign: MSG.jobs.onlyAssignedUnassign,
  delete: MSG.jobs.cannotDeleteInStatus,
};

/**
 * Who cancels or deletes a job: its poster, or the admin, who may do so to any job and must
 * say why (DECISIONS.md "Admin reach"); the reason is logged and sent to the poster.
 */
export type JobActor = { userId: string; isAdmin: false } | { userId: string; isAdmin: true; reason: string };

const posterActor = (posterId: string): JobActor => ({ userId: posterId, isAdmin: false });

/**
 * Loads a job for an action of its poster (or the admin): a job that does not exist, is being
 * deleted, or belongs to someone else is "not found or no permission" (nobody learns which);
 * a job in a status the action cannot start from is refused with the action's message.
 */
async function jobForPosterAction(jobId: string, actor: JobActor, action: JobAction, verb: Verb): Promise<JobItem> {
  const job = await getJob(jobId);
  if (!job || (job.posterId !== actor.userId && !actor.isAdmin)) throw notFound(MSG.jobs.notFoundOrNoPermission(verb));
  if (!canPerform(action, job)) {
    throw new HttpError(409, action === 'adminCancel' ? MSG.admin.onlyHeldCancel : WRONG_STATUS[verb]);
  }
  return job;
}

/**
 * What the admin's cancel or delete writes beside the change: the admin_actions entry and the
 * notice with the reason to the poster and to the worker whose job it was, for the same
 * transaction (so racing clicks log and notify once).
 */
function moderationWrites(job: JobItem, actor: JobActor, verb: 'cancel' | 'delete'): TransactItem[] {
  if (!actor.isAdmin) return [];
  const notifications = [job.posterId, ...(job.workerId ? [job.workerId] : [])].map((userId) =>
    notificationItem({
      userId,
      // A deleted job's notifications are deleted with it: this one must not point at the job.
      jobId: verb === 'cancel' ? job.id : null,
      type: 'job_moderated',
      title: verb === 'cancel' ? MSG.admin.cancelledNoticeTitle : MSG.admin.removedNoticeTitle,
      message: (verb === 'cancel' ? MSG.admin.cancelledNoticeMessage : MSG.admin.removedNoticeMessage)(job.title, actor.reason),
      metadata: { jobTitle: job.title, jobId: job.id },
    }),
  );
  const action = adminActionPut({
    adminId: actor.userId,
    actionType: verb === 'cancel' ? 'cancel_job' : 'delete_job',
    targetType: 'job',
    targetId: job.id,
    details: { jobTitle: job.title, status: job.status, posterId: job.posterId },
    reason: actor.reason,
  });
  return [...notifications.flatMap(notificationWrites), action];
}

/** A transition of the job by its poster (or the admin), with its job event in the same transaction. */
async function applyTransition(job: JobItem, action: TransitionAction, changes: Partial<JobItem>, change: JobChange, extra: TransactItem[] = []): Promise<JobItem> {
  const { updated, update } = jobTransition(job, action, changes, { by: { posterId: job.posterId } });
  await transactOrConflict([{ Update: update }, jobEvent(JOB_EVENT.updated, updated, change), ...extra], MSG.jobs.statusChanged);
  return updated;
}

/**
 * The poster edits an open job; the price is locked once the job was paid for. New image
 * keys are checked by `verifyImages` (given the keys already attached) before anything is
 * written; the keys the edit drops are returned for deletion.
 */
export async function editJob(
  jobId: string,
  posterId: string,
  request: CreateJobRequest,
  verifyImages: (alreadyAttached: string[]) => Promise<void>,
): Promise<{ job: JobItem; removedImageKeys: string[] }> {
  const job = await jobForPosterAction(jobId, posterActor(posterId), 'edit', 'update');
  if (job.paidAt && request.payment !== job.payment) throw badRequest(MSG.jobs.priceLocked);
  await requirePostableCategory(request.category, job.category);
  await verifyImages(job.imageKeys);
  // Offers or a fixed price is how the job was paid for and applied to: kept as posted.
  const updated = await applyTransition(job, 'edit', { ...jobFieldsOf(request), openToOffers: job.openToOffers ?? false }, 'edited');
  return { job: updated, removedImageKeys: job.imageKeys.filter((key) => !request.images.includes(key)) };
}

/**
 * assigned -> cancelled (by the admin: open, assigned or completed -> cancelled), the worker
 * cleared: the poster's money is decided for a refund in the same transaction (held ->
 * refunding, shared/job-process.ts), so no release can follow, and the refund rule makes it
 * after the 'cancelled' event.
 */
export async function cancelJob(jobId: string, actor: JobActor): Promise<JobItem> {
  const action = actor.isAdmin ? 'adminCancel' : 'cancel';
  const job = await jobForPosterAction(jobId, actor, action, 'cancel');
  return decideRefund(job, {
    action,
    reason: actor.isAdmin ? actor.reason : 'Cancelled by the poster',
    changes: { workerId: undefined },
    extra: moderationWrites(job, actor, 'cancel'),
    // The poster is told their money went back; the worker learns of the cancel from it too.
    tell: [job.posterId, ...(job.workerId ? [job.workerId] : [])],
  });
}

/**
 * assigned -> open; the worker is cleared, their application closed, and they are told, in
 * the same transaction, with a 'Job Unassignment Notice' notification.
 */
export async function unassignJob(jobId: string, posterId: string): Promise<{ job: JobItem; notification: ReturnType<typeof notificationItem> }> {
  const job = await jobForPosterAction(jobId, posterActor(posterId), 'unassign', 'unassign');
  const workerId = job.workerId!;
  // What belonged to the worker's assignment goes with them.
  const { updated, update } = jobTransition(job, 'unassign', { workerId: undefined, assignedAt: undefined, declineReason: undefined, priceChange: undefined }, { by: { posterId } });
  const notification = notificationItem({
    userId: workerId,
    jobId,
    type: 'job_unassigned',
    title: MSG.jobs.unassignNoticeTitle,
    message: MSG.jobs.unassignNoticeMessage(job.title),
    metadata: { jobTitle: job.title },
  });
  // The worker's accepted application is closed too, so the job can accept someone else;
  // `unassignedAt` remembers that they once held the job (they may still file a dispute).
  const closeApplication = {
    Update: {
      TableName: tableName(),
      Key: keys.application(jobId, workerId),
      UpdateExpression: 'SET #status = :rejected, updatedAt = :now, unassignedAt = :now',
      ConditionExpression: '#status = :accepted',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':rejected': 'rejected', ':accepted': 'accepted', ':now': updated.updatedAt },
    },
  };
  await transactOrConflict([{ Update: update }, closeApplication, jobEvent(JOB_EVENT.updated, updated, 'unassigned'), ...notificationWrites(notification)], MSG.jobs.statusChanged);
  return { job: updated, notification };
}

type Key = { pk: string; sk: string };

/** All items of one partition, keys only. */
const partitionKeys = (pk: string) =>
  queryAll<Key>({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: 'pk, sk' });

/** Items outside the job's partition that belong to it (GSI3 JOBREF#<jobId>). */
const referencingKeys = (jobId: string) =>
  queryAll<Key>({
    IndexName: 'GSI3',
    KeyConditionExpression: 'gsi3pk = :ref',
    ExpressionAttributeValues: { ':ref': keys.jobReferences(jobId) },
    ProjectionExpression: 'pk, sk',
  });

/**
 * Deletes a job and everything of it: applications, search terms and other items in its
 * partition; saved entries, notifications and conversations (with their messages) found
 * through GSI3. The job is first marked `deletingAt` and taken off the feed, and deleted
 * last: if anything fails half-way, the marked job still leads to every remaining child and
 * calling delete again finishes the work.
 */
export async function deleteJob(jobId: string, actor: JobActor): Promise<JobItem> {
  const job = await getJob(jobId, { includeDeleting: true, consistentRead: true });
  if (!job || (job.posterId !== actor.userId && !actor.isAdmin)) throw notFound(MSG.jobs.notFoundOrNoPermission('delete'));
  if (!job.deletingAt) {
    if (!canPerform(actor.isAdmin ? 'adminDelete' : 'delete', job)) throw new HttpError(409, MSG.jobs.cannotDeleteInStatus);
    if (job.tipState && TIP_IN_FLIGHT.includes(job.tipState)) throw new HttpError(409, MSG.tips.inFlight);
    // Money still held is decided in the same step: refunded, so the job's deletion never strands
    // what the poster paid; an unpaid draft's payment is cancelled (or refunded, had it just succeeded).
    const money = moneyStateOf(job);
    const reason = actor.isAdmin ? actor.reason : 'Job deleted';
    const refund = money === 'held' && job.stripePaymentIntentId ? await deletingRefund(job, reason, actor.isAdmin ? [job.posterId, ...(job.workerId ? [job.workerId] : [])] : [job.posterId]) : undefined;
    const decision: MoneyDecision<unknown> | undefined = refund?.decision ?? (money === 'unpaid' && job.stripePaymentIntentId ? voidDecision(job) : undefined);
    const changes: Partial<JobItem> = refund?.changes ?? (decision ? { moneyDecisionId: decision.id } : {});
    const removed: JobItem = { ...job, ...changes };
    const set = Object.entries(changes);
    // The job's removal is told once, with the mark: from then on the job is gone for
    // everyone, and a delete called again only finishes the cascade.
    await transactOrConflict([
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: `SET deletingAt = :now${set.map(([name]) => `, #${name} = :${name}`).join('')} REMOVE gsi1pk, gsi1sk`,
          // The money as it was read (a job stored before money states has none: its status decides).
          ConditionExpression: '#status = :expected AND (moneyState = :money OR attribute_not_exists(moneyState)) AND posterId = :poster AND attribute_not_exists(deletingAt)',
          ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(set.map(([name]) => [`#${name}`, name])) },
          ExpressionAttributeValues: {
            ':now': new Date().toISOString(),
            ':expected': job.status,
            ':money': money,
            ':poster': job.posterId,
            ...Object.fromEntries(set.map(([name, value]) => [`:${name}`, value])),
          },
        },
      },
      ...(decision ? [decisionPut(decision)] : []),
      jobEvent(JOB_EVENT.removed, removed, 'deleted'),
      ...moderationWrites(job, actor, 'delete'),
    ], MSG.jobs.statusChanged);
    if (decision) await carryOutQuietly(decision);
  } else if (job.moneyDecisionId) {
    // A delete called again while its refund (or cancellation) waits for Stripe: one more try, beside the schedule's.
    await carryOutQuietly(job.moneyDecisionId);
  }

  const references = await referencingKeys(jobId);
  // A conversation is the root of its own partition (its messages): delete it whole.
  const conversationPartitions = references.filter((key) => key.sk === 'CONV').map((key) => key.pk);
  await Promise.all(conversationPartitions.map(settleUnreadBeforeDelete));
  const nested = (await Promise.all(conversationPartitions.map(partitionKeys))).flat();
  const own = (await partitionKeys(keys.jobPartition(jobId))).filter((key) => key.sk !== keys.job(jobId).sk);
  const children = [...nested, ...references, ...own];
  const unique = [...new Map(children.map((key) => [`${key.pk}|${key.sk}`, key])).values()];
  await batchWrite(unique.map((key) => ({ DeleteRequest: { Key: key } })));
  await batchWrite([{ DeleteRequest: { Key: keys.job(jobId) } }]);
  return job;
}
