import type { AppNotification } from './api.js';
import { EARNINGS_PATH, IDENTITY_PATH, MESSAGES_PATH, OPEN_DISPUTE_PARAM, adminTabPath, jobApplicantsPath } from './app-paths.js';
import { ROLE_HOME, type Role } from './roles.js';

/**
 * Where opening a notification leads (issue 25): to what it is about, not always its job. A
 * worker's question and messages that came while away open the conversation, a dispute update
 * the dispute's thread (on the party's dashboard; the admin's disputes tab), a released payment
 * or a failed payout the worker's earnings, a new applicant or an offer's change the job's Applications tab, a public question or its answer the job's questions; the rest
 * open their job, or the list when they have none. The bell and the page navigate here; a web
 * push opens it (the server puts it in the push's payload), and emails link to it.
 */
/** What a poster reviews among the job's applicants: a new applicant, and what workers did with their offers. */
const APPLICANTS_TYPES: ReadonlySet<AppNotification['type']> = new Set(['new_applicant', 'offer_received', 'offer_changed', 'counter_answered']);

export function notificationTarget(notification: Pick<AppNotification, 'type' | 'jobId' | 'metadata'>, role: Role | undefined): string {
  const { conversation_id: conversationId, disputeId } = notification.metadata;
  if ((notification.type === 'worker_question' || notification.type === 'new_message') && conversationId) return `${MESSAGES_PATH}/${encodeURIComponent(conversationId)}`;
  // Only a worker has earnings: the poster's notice of an (automatic) release opens the job.
  if ((notification.type === 'payment_released' && role === 'worker') || notification.type === 'payout_failed') return EARNINGS_PATH;
  if (notification.type === 'identity_verified' || notification.type === 'identity_needs_retry') return IDENTITY_PATH;
  if (APPLICANTS_TYPES.has(notification.type) && notification.jobId) return jobApplicantsPath(notification.jobId);
  if (notification.type === 'dispute_update' && disputeId && role) {
    return role === 'admin' ? adminTabPath('disputes') : `${ROLE_HOME[role]}?${OPEN_DISPUTE_PARAM}=${encodeURIComponent(disputeId)}`;
  }
  if ((notification.type === 'question_asked' || notification.type === 'question_answered') && notification.jobId) return `/jobs/${encodeURIComponent(notification.jobId)}#questions`;
  return notification.jobId ? `/jobs/${encodeURIComponent(notification.jobId)}` : '/notifications';
}
