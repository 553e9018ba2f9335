import type { AppNotification, NotificationType } from '../../shared/api.js';
import { escapeHtml } from '../../shared/html.js';
import { NOTIFICATION_TYPE_LABELS } from '../../shared/notifications.js';
import { notificationTarget } from '../../shared/notification-target.js';
import type { Role } from '../../shared/roles.js';
import { UNSUBSCRIBE_PATH, UNSUBSCRIBE_TOKEN_PARAM } from '../../shared/unsubscribe-token.js';

/**
 * The one template of each type's email: its subject and first paragraph are the
 * notification's own title and message (the spec's texts), then the button to its subject.
 */
const EMAIL_TEMPLATES: Record<NotificationType, { action: string }> = {
  new_job_nearby: { action: 'View the job' },
  job_unassigned: { action: 'View the job' },
  job_completed: { action: 'Review the work and release payment' },
  payment_released: { action: 'View your earnings' },
  job_declined: { action: 'View the job' },
  dispute_update: { action: 'Open the dispute' },
  worker_question: { action: 'Open the conversation' },
  application_rejected: { action: 'View the job' },
  application_accepted: { action: 'View the job' },
  job_moderated: { action: 'View the job' },
  new_message: { action: 'Open the conversation' },
  new_applicant: { action: 'Review the applicants' },
  payout_failed: { action: 'View your earnings' },
};

export interface EmailLinks {
  /** The site's origin (https://<domain>). */
  siteOrigin: string;
  /** The HTTP API's URL, where the one-click unsubscribe posts (RFC 8058). */
  apiUrl: string;
  /** The signed token naming the user and this type. */
  unsubscribeToken: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  headers: Array<{ name: string; value: string }>;
}

/** A notification as an email: text and HTML from the same parts, with its one-click unsubscribe headers. */
export function renderNotificationEmail(notification: Pick<AppNotification, 'type' | 'jobId' | 'metadata' | 'title' | 'message'>, role: Role, links: EmailLinks): RenderedEmail {
  const { action } = EMAIL_TEMPLATES[notification.type];
  const subjectUrl = new URL(notificationTarget(notification, role), links.siteOrigin).href;
  const token = encodeURIComponent(links.unsubscribeToken);
  const unsubscribePage = `${new URL(UNSUBSCRIBE_PATH, links.siteOrigin).href}?${UNSUBSCRIBE_TOKEN_PARAM}=${token}`;
  const oneClick = `${links.apiUrl.replace(/\/$/, '')}${UNSUBSCRIBE_PATH}?${UNSUBSCRIBE_TOKEN_PARAM}=${token}`;
  const settings = new URL('/notification-settings', links.siteOrigin).href;
  const why = `You receive this email because "${NOTIFICATION_TYPE_LABELS[notification.type]}" is on for email in your notification settings.`;

  const text = [
    notification.title,
    '',
    notification.message,
    '',
    `${action}: ${subjectUrl}`,
    '',
    '--',
    why,
    `Stop these emails: ${unsubscribePage}`,
    `All notification settings: ${settings}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(notification.title)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px"><tr><td>
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(notification.title)}</h1>
<p style="font-size:16px;line-height:1.5;margin:0 0 20px">${escapeHtml(notification.message)}</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(subjectUrl)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">${escapeHtml(action)}</a></p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:0 0 12px">
<p style="font-size:13px;color:#4b5563;margin:0 0 4px">${escapeHtml(why)}</p>
<p style="font-size:13px;margin:0"><a href="${escapeHtml(unsubscribePage)}" style="color:#4b5563">Stop these emails</a> · <a href="${escapeHtml(settings)}" style="color:#4b5563">All notification settings</a></p>
</td></tr></table></body></html>`;
  return {
    subject: notification.title,
    text,
    html,
    headers: [
      { name: 'List-Unsubscribe', value: `<${oneClick}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ],
  };
}
