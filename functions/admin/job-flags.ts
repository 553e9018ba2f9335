import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ADMIN_PAGE_SIZE, automaticFlagReasons, type AdminFlaggedJob, type FlagStatus, type FlagType, type FlaggedJob } from '../../shared/admin.js';
import type { Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { conditionHeld, db, decodeCursor, encodeCursor, queryAll, tableName } from '../lib/db.js';
import { HttpError, badRequest, conflict, notFound } from '../lib/errors.js';
import { TransactionRefused, retryLostRaces, transactWrite } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { SYSTEM_ACTOR, adminActionPut } from '../lib/admin-actions.js';
import { cancelJob } from '../jobs/job-management.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { getQuestion, questionRemovalWrites } from '../applications/questions.js';
import { QUESTION_TEXTS } from '../../shared/questions.js';
import { profileNames } from '../people/profiles.js';

/**
 * Reports on jobs (DECISIONS.md "How a job gets flagged"): by any signed-in user from the
 * job page, once per user per job (the key itself), and by the platform's own rules, once
 * per rule per job, so a flag the admin approved never comes back with the next edit.
 */
type FlagItem = FlaggedJob & { pk: string; sk: string };

/** A report's subject within the job: one of its public questions (issue 45), as reported. */
interface ReportedQuestion {
  id: string;
  text: string;
}

async function putFlag(job: JobItem, reporterId: string, flagType: FlagType, reason: string, question?: ReportedQuestion): Promise<boolean> {
  const createdAt = new Date().toISOString();
  const id = question ? `${job.id}:question:${question.id}:${reporterId}` : `${job.id}:${reporterId}`;
  const flag: FlaggedJob = {
    id,
    jobId: job.id,
    jobTitle: job.title,
    reporterId,
    flagType,
    reason,
    status: 'pending',
    adminNotes: null,
    reviewedBy: null,
    reviewedAt: null,
    createdAt,
    ...(question ? { questionId: question.id, questionText: question.text } : {}),
  };
  return conditionHeld(
    db.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...(question ? keys.questionFlag(job.id, question.id, reporterId) : keys.jobFlag(job.id, reporterId)),
          type: 'jobFlag',
          ...flag,
          gsi1pk: keys.flagsByStatus('pending'),
          gsi1sk: timeOrdered(createdAt, id),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * 'Report this job': any signed-in user but the job's poster, once per job. A public question
 * on the job (`questionId`, issue 45) is reported by anyone but its asker, once per question.
 */
export async function reportJob(jobId: string, reporterId: string, flagType: FlagType, reason: string, questionId?: string): Promise<void> {
  const job = await getJob(jobId);
  if (!job || job.status === 'awaiting_payment') throw notFound(MSG.jobs.notFound);
  if (questionId) {
    const question = await getQuestion(jobId, questionId);
    if (!question) throw notFound(QUESTION_TEXTS.notFound);
    if (question.askerId === reporterId) throw badRequest(QUESTION_TEXTS.cannotReportOwn);
    if (!(await putFlag(job, reporterId, flagType, reason, { id: question.id, text: question.answer ? `${question.text}\n— ${question.answer}` : question.text }))) throw conflict(MSG.flags.alreadyReported);
    return;
  }
  if (job.posterId === reporterId) throw badRequest(MSG.flags.cannotReportOwn);
  if (!(await putFlag(job, reporterId, flagType, reason))) throw conflict(MSG.flags.alreadyReported);
}

/**
 * The platform's own flags on a job that was posted or edited: text asking for payment
 * outside the platform or holding a phone number or email address, and a payment that
 * tripped a suspicious-payment rule. Answers how many new flags it wrote.
 */
export async function flagAutomatically(jobId: string): Promise<number> {
  const job = await getJob(jobId);
  if (!job || job.status === 'awaiting_payment') return 0;
  const textReasons = automaticFlagReasons([job.title, job.description, ...(job.requirements ?? [])].join('\n'));
  const flags: [string, FlagType, string][] = [];
  if (textReasons.length) {
    const type: FlagType = textReasons[0] === 'asks for payment outside the platform' ? 'off_platform_payment' : 'other';
    flags.push([`${SYSTEM_ACTOR}#text`, type, `Automatic: the job text ${textReasons.join(' and ')}`]);
  }
  if (job.suspiciousPayment) flags.push([`${SYSTEM_ACTOR}#payment`, 'scam', `Automatic: suspicious payment (${job.suspiciousPayment})`]);
  const written = await Promise.all(flags.map(([reporter, type, reason]) => putFlag(job, reporter, type, reason)));
  return written.filter(Boolean).length;
}

/** An assigned or completed job one of whose parties the admin suspended, for the admin's attention (once per job). */
export function flagForSuspension(job: JobItem, reason: string): Promise<boolean> {
  return putFlag(job, `${SYSTEM_ACTOR}#suspension`, 'other', reason);
}

const toFlag = ({ pk: _pk, sk: _sk, ...flag }: FlagItem): FlaggedJob => ({
  id: flag.id,
  jobId: flag.jobId,
  jobTitle: flag.jobTitle,
  reporterId: flag.reporterId,
  flagType: flag.flagType,
  reason: flag.reason,
  status: flag.status,
  adminNotes: flag.adminNotes ?? null,
  reviewedBy: flag.reviewedBy ?? null,
  reviewedAt: flag.reviewedAt ?? null,
  createdAt: flag.createdAt,
  ...(flag.questionId ? { questionId: flag.questionId, questionText: flag.questionText ?? '' } : {}),
});

/** Flags in one status, newest first (GSI1 "FLAGS#<status>"), 50 per page, with the reporters' names (one BatchGetItem). */
export async function listFlags(status: FlagStatus, cursor: string | undefined): Promise<Page<AdminFlaggedJob>> {
  const partition = keys.flagsByStatus(status);
  const startKey = decodeCursor(cursor, { index: 'GSI1', partition });
  const { Items = [], LastEvaluatedKey } = await db.send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': partition },
      ScanIndexForward: false,
      Limit: ADMIN_PAGE_SIZE,
      ExclusiveStartKey: startKey,
    }),
  );
  const flags = (Items as FlagItem[]).map(toFlag);
  const names = await profileNames(flags.map((flag) => flag.reporterId).filter((id) => !id.startsWith(SYSTEM_ACTOR)));
  return { items: flags.map((flag) => ({ ...flag, reporterName: names.get(flag.reporterId) ?? null })), nextCursor: encodeCursor(LastEvaluatedKey) };
}

/**
 * The admin's decision on a reported job, for every pending flag on it at once: 'approved'
 * keeps the job listed and clears its flags for good; 'removed' cancels the job (with the
 * refund rules of a cancel, and the poster told why: the notes) and closes its flags. The
 * cancel goes first, so a refused cancel leaves the flags pending; repeating a removal
 * after a failure finds the job cancelled and only closes the flags.
 *
 * With `questionId`, the decision is on the reports of that public question alone: 'removed'
 * deletes the question (in the transaction that closes its reports), never the job.
 */
export async function reviewJobFlags(
  jobId: string,
  decision: 'approved' | 'removed',
  notes: string,
  adminId: string,
  questionId?: string,
): Promise<void> {
  if (decision === 'removed' && !notes) throw badRequest(MSG.admin.reviewNotesRequired);
  const pending = (
    await queryAll<FlagItem>({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :flag)',
      ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':flag': keys.jobFlagPrefix() },
      ConsistentRead: true,
    })
  ).filter((flag) => flag.status === 'pending' && flag.questionId === questionId);
  if (!pending.length) throw conflict(MSG.admin.flagAlreadyReviewed);

  const job = await getJob(jobId);
  if (decision === 'removed' && !questionId && job && job.status !== 'cancelled') {
    await cancelJob(jobId, { userId: adminId, isAdmin: true, reason: notes });
  }
  const removal = decision === 'removed' && questionId ? await questionRemovalWrites(jobId, questionId) : [];
  const reviewedAt = new Date().toISOString();
  try {
    await retryLostRaces(() =>
      transactWrite([
        ...pending.map((flag) => ({
          Update: {
            TableName: tableName(),
            Key: { pk: flag.pk, sk: flag.sk },
            UpdateExpression: 'SET #status = :decision, adminNotes = :notes, reviewedBy = :admin, reviewedAt = :now, gsi1pk = :list',
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':decision': decision,
              ':notes': notes || null,
              ':admin': adminId,
              ':now': reviewedAt,
              ':list': keys.flagsByStatus(decision),
              ':pending': 'pending',
            },
          },
        })),
        adminActionPut({
          adminId,
          actionType: 'review_flagged_job',
          targetType: 'job',
          targetId: jobId,
          details: { decision, flags: pending.length, jobTitle: pending[0]!.jobTitle, ...(questionId ? { questionId } : {}) },
          reason: notes,
        }),
        ...removal,
      ]),
    );
  } catch (error) {
    if (error instanceof TransactionRefused) throw new HttpError(409, MSG.admin.flagAlreadyReviewed);
    throw error;
  }
}
