import type { AppNotification } from './api.js';
import { ROLE_HOME, type Role } from './roles.js';

export const MESSAGES_PATH = '/real-time-messages';
export const EARNINGS_PATH = '/worker-earnings';

/** The dashboards' query parameter that opens one dispute's thread in the disputes panel. */
export const OPEN_DISPUTE_PARAM = 'dispute';

/** A tab of the admin console, by its `?tab=` value (screens/admin-dashboard). */
export const adminTabPath = (tab: string) => `${ROLE_HOME.admin}?tab=${tab}`;

/**
 * Where a notification leads (issue 25), in the app and from its email: to what it is about,
 * not always its job. A worker's question and messages that came while away open the conversation, a dispute update the
 * dispute's thread (on the party's dashboard; the admin's disputes tab), a released payment the
 * worker's earnings; the rest open their job, or the list when they have none.
 */
export function notificationTarget(notification: Pick<AppNotification, 'type' | 'jobId' | 'metadata'>, role: Role | undefined): string {
  const { conversation_id: conversationId, disputeId } = notification.metadata;
  if ((notification.type === 'worker_question' || notification.type === 'new_message') && conversationId) return `${MESSAGES_PATH}/${encodeURIComponent(conversationId)}`;
  if (notification.type === 'payment_released') return EARNINGS_PATH;
  if (notification.type === 'dispute_update' && disputeId && role) {
    return role === 'admin' ? adminTabPath('disputes') : `${ROLE_HOME[role]}?${OPEN_DISPUTE_PARAM}=${encodeURIComponent(disputeId)}`;
  }
  return notification.jobId ? `/jobs/${encodeURIComponent(notification.jobId)}` : '/notifications';
}
