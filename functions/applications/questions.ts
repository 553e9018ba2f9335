import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { JobQuestion } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { QUESTION_LIMITS, QUESTION_TEXTS, publicTextProblem } from '../../shared/questions.js';
import { db, queryAll, tableName } from '../lib/db.js';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors.js';
import { TransactionRefused, retryWhileStale, transactWrite, type TransactItem } from '../lib/transactions.js';
import { keys, timeOrdered } from '../table.js';
import { jobEvent } from '../jobs/job-events.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { JOB_EVENT } from '../routes.js';
import { notificationItem, notificationWrites } from '../notifications/notifications.js';
import { profileNames, type ProfileItem } from '../people/profiles.js';

/**
 * Public questions on an open job (issue 45, docs/decisions/0322): a worker asks, the poster
 * answers once, every signed-in reader of the job's page sees both. Each lives in the job's
 * partition (so the page reads them with one Query and they go with the job) and is counted on
 * the job, which bounds the list. What job text would be flagged for is refused before anything
 * is public; a reader's report is a flag for the admin (functions/admin/job-flags.ts).
 */

export interface QuestionItem {
  id: string;
  jobId: string;
  askerId: string;
  text: string;
  answer?: string;
  answeredAt?: string;
  createdAt: string;
}

export async function getQuestion(jobId: string, questionId: string): Promise<QuestionItem | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.jobQuestion(jobId, questionId), ConsistentRead: true }));
  return Item as QuestionItem | undefined;
}

/** The job as a reader of its page may see it: a draft is its poster's alone, a job being deleted nobody's. */
async function readableJob(jobId: string, viewerId: string): Promise<JobItem> {
  const job = await getJob(jobId, { consistentRead: true });
  if (!job || (job.status === 'awaiting_payment' && job.posterId !== viewerId)) throw notFound(MSG.jobs.notFound);
  return job;
}

/** A question as the job's page shows it, with its asker's name as it is now (none: a deleted account). */
const toJobQuestion = (item: QuestionItem, askerName: string | null): JobQuestion => ({
  id: item.id,
  jobId: item.jobId,
  askerId: item.askerId,
  askerName,
  text: item.text,
  answer: item.answer ?? null,
  answeredAt: item.answeredAt ?? null,
  createdAt: item.createdAt,
});

/** The job's change event, for the transaction that changed its questions: its page reads them again. */
const questionsChanged = (job: JobItem): TransactItem => jobEvent(JOB_EVENT.updated, job, 'questions');

/** GET /jobs/{id}/questions: every question of the job, newest first, with the askers' names as they are now. */
export async function listQuestions(jobId: string, viewerId: string): Promise<{ items: JobQuestion[] }> {
  await readableJob(jobId, viewerId);
  const items = await queryAll<QuestionItem>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.jobPartition(jobId), ':prefix': keys.jobQuestionPrefix() },
  });
  const names = await profileNames([...new Set(items.map((item) => item.askerId))]);
  return { items: items.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((item) => toJobQuestion(item, names.get(item.askerId) ?? null)) };
}

/**
 * POST /jobs/{id}/questions: a worker asks on an open job that is not theirs. One transaction:
 * the question, the job's count on condition that it is still open with room for one more, the
 * poster's notice and the job's event.
 */
export async function askQuestion(jobId: string, asker: ProfileItem, text: string): Promise<JobQuestion> {
  if (asker.role !== 'worker') throw forbidden(QUESTION_TEXTS.onlyWorkers);
  const problem = publicTextProblem(text);
  if (problem) throw badRequest(problem);
  return retryWhileStale(async () => {
    const job = await readableJob(jobId, asker.id);
    if (job.posterId === asker.id) throw forbidden(QUESTION_TEXTS.ownJob);
    if (job.status !== 'open' || job.posterSuspended) throw conflict(QUESTION_TEXTS.closed);
    if ((job.questionCount ?? 0) >= QUESTION_LIMITS.perJob) throw conflict(QUESTION_TEXTS.tooMany);
    const question: QuestionItem = { id: randomUUID(), jobId, askerId: asker.id, text, createdAt: new Date().toISOString() };
    // A refused transaction (the job closed or filled up meanwhile) runs again, and the rerun reads why.
    await transactWrite([
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.jobQuestion(jobId, question.id), type: 'question', ...question, gsi1pk: keys.questionsOf(asker.id), gsi1sk: timeOrdered(question.createdAt, question.id) },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.job(jobId),
          UpdateExpression: 'ADD questionCount :one',
          ConditionExpression: '#status = :open AND attribute_not_exists(deletingAt) AND attribute_not_exists(posterSuspended) AND (attribute_not_exists(questionCount) OR questionCount < :max)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':one': 1, ':open': 'open', ':max': QUESTION_LIMITS.perJob },
        },
      },
      questionsChanged(job),
      ...notificationWrites(
        notificationItem({
          userId: job.posterId,
          jobId,
          type: 'question_asked',
          title: QUESTION_TEXTS.askedTitle,
          message: QUESTION_TEXTS.askedMessage(asker.name, job.title),
          metadata: { worker_id: asker.id, worker_name: asker.name, jobTitle: job.title },
        }),
      ),
    ]);
    return toJobQuestion(question, asker.name);
  });
}

/** POST /jobs/{id}/questions/{questionId}/answer: the job's poster answers a question once, and its asker is told. */
export async function answerQuestion(jobId: string, posterId: string, questionId: string, answer: string): Promise<JobQuestion> {
  const problem = publicTextProblem(answer);
  if (problem) throw badRequest(problem);
  const job = await getJob(jobId, { consistentRead: true });
  if (!job || job.posterId !== posterId) throw notFound(MSG.jobs.notFound);
  const question = await getQuestion(jobId, questionId);
  if (!question) throw notFound(QUESTION_TEXTS.notFound);
  if (question.answer !== undefined) throw conflict(QUESTION_TEXTS.alreadyAnswered);
  const answeredAt = new Date().toISOString();
  try {
    await transactWrite([
      {
        Update: {
          TableName: tableName(),
          Key: keys.jobQuestion(jobId, questionId),
          UpdateExpression: 'SET answer = :answer, answeredAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(answer)',
          ExpressionAttributeValues: { ':answer': answer, ':at': answeredAt },
        },
      },
      questionsChanged(job),
      ...notificationWrites(
        notificationItem({ userId: question.askerId, jobId, type: 'question_answered', title: QUESTION_TEXTS.answeredTitle, message: QUESTION_TEXTS.answeredMessage(job.title), metadata: { jobTitle: job.title } }),
      ),
    ]);
  } catch (error) {
    if (error instanceof TransactionRefused) throw conflict(QUESTION_TEXTS.alreadyAnswered);
    throw error;
  }
  // The item as read carries the table's keys: the answer is the page's view of it, with the answer.
  const names = await profileNames([question.askerId]);
  return toJobQuestion({ ...question, answer, answeredAt }, names.get(question.askerId) ?? null);
}

/**
 * The admin removes a reported question (functions/admin/job-flags.ts): deleted with the job's
 * count, in the transaction that closes its reports; the job's page reads its questions again.
 */
export async function questionRemovalWrites(jobId: string, questionId: string): Promise<TransactItem[]> {
  const [job, question] = await Promise.all([getJob(jobId, { consistentRead: true, includeDeleting: true }), getQuestion(jobId, questionId)]);
  if (!job || !question) return [];
  return [
    { Delete: { TableName: tableName(), Key: keys.jobQuestion(jobId, questionId), ConditionExpression: 'attribute_exists(pk)' } },
    { Update: { TableName: tableName(), Key: keys.job(jobId), UpdateExpression: 'ADD questionCount :minusOne', ExpressionAttributeValues: { ':minusOne': -1 } } },
    questionsChanged(job),
  ];
}

/**
 * A deleted account's questions go (their words are theirs), each with the job's count and
 * event, as the admin's removal does. Answers how many it removed; run again, none.
 */
export async function removeQuestionsOf(workerId: string): Promise<number> {
  const asked = await queryAll<QuestionItem>({
    IndexName: 'GSI1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.questionsOf(workerId) },
  });
  for (const question of asked) {
    const writes = await questionRemovalWrites(question.jobId, question.id);
    // Removed meanwhile (the admin, or the job's delete): nothing left to do.
    if (writes.length) await transactWrite(writes).catch((error: unknown) => {
      if (!(error instanceof TransactionRefused)) throw error;
    });
  }
  return asked.length;
}
