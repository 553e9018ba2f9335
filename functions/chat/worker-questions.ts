import { MSG } from '../../shared/messages.js';
import { forbidden, notFound } from '../lib/errors.js';
import { transactWrite } from '../lib/transactions.js';
import { getJob, type JobItem } from '../jobs/jobs.js';
import { notificationItem, notificationWrites, type StoredNotification } from '../notifications/notifications.js';
import { getProfile } from '../people/profiles.js';

/**
 * The seam for messaging (spec 2 §6: a worker asks a question by messaging the poster about an
 * open job, and the poster receives a worker_question notification). The item alone, for the
 * messaging code to put in the same transaction as the conversation it opens.
 */
export function workerQuestionNotification(job: Pick<JobItem, 'id' | 'title' | 'posterId'>, worker: { id: string; name: string }, conversationId: string): StoredNotification {
  return notificationItem({
    userId: job.posterId,
    jobId: job.id,
    type: 'worker_question',
    title: MSG.applications.questionTitle,
    message: MSG.applications.questionMessage(worker.name, job.title),
    // The spec's metadata keys, as the notification list reads them.
    metadata: { conversation_id: conversationId, worker_id: worker.id, worker_name: worker.name, jobTitle: job.title },
  });
}

/**
 * Tells the poster that a worker asked about their job, and delivers it live. A question is
 * about an open job: for any other status nothing is written and undefined comes back (the
 * conversation itself is messaging's business). Only a worker asks, never about their own job.
 */
export async function notifyWorkerQuestion(input: {
  jobId: string;
  workerId: string;
  conversationId: string;
}): Promise<StoredNotification | undefined> {
  const [job, worker] = await Promise.all([getJob(input.jobId), getProfile(input.workerId)]);
  if (!job || job.status === 'awaiting_payment') throw notFound(MSG.jobs.notFound);
  if (job.posterId === input.workerId) throw forbidden(MSG.applications.cannotMessageSelf);
  if (worker?.role !== 'worker') throw forbidden();
  if (job.status !== 'open') return undefined;
  const notification = workerQuestionNotification(job, worker, input.conversationId);
  await transactWrite(notificationWrites(notification));
  return notification;
}
