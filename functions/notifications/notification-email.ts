import type { AppNotification, NotificationType } from '../../shared/api.js';
import { escapeHtml } from '../../shared/html.js';
import { MSG } from '../../shared/messages.js';
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
  payment_paused: { action: 'View the job' },
  payment_resumed: { action: 'View the job' },
  payment_blocked: { action: 'View the job' },
  payment_refunded: { action: 'View the job' },
  payment_reversed: { action: 'View the job' },
  chargeback: { action: 'View the job' },
  identity_verified: { action: 'View your profile' },
  identity_needs_retry: { action: 'Verify your identity' },
  offer_received: { action: 'Review the offers' },
  offer_changed: { action: 'Review the offers' },
  counter_offer: { action: 'Answer the counter-offer' },
  counter_answered: { action: 'Review the offers' },
  offer_accepted: { action: 'View the job' },
  offer_declined: { action: 'View the job' },
  question_asked: { action: 'Answer the question' },
  question_answered: { action: 'Read the answer' },
  price_change_requested: { action: 'Answer the price change' },
  price_change_approved: { action: 'View the job' },
  price_change_declined: { action: 'View the job' },
  payment_charged: { action: 'View the job' },
  saved_search_match: { action: 'View the job' },
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

/** What one email says: its title, paragraphs, an optional list of links, and the button to its subject. */
interface EmailContent {
  type: NotificationType;
  title: string;
  paragraphs: readonly string[];
  links?: ReadonlyArray<{ label: string; detail: string; url: string }>;
  action?: { label: string; url: string };
}

/**
 * Every email's frame: text and HTML from the same parts, the footer that says why it came with
 * the unsubscribe and settings links, and the one-click unsubscribe headers (RFC 8058) for its type.
 */
function renderEmail(content: EmailContent, links: EmailLinks): RenderedEmail {
  const token = encodeURIComponent(links.unsubscribeToken);
  const unsubscribePage = `${new URL(UNSUBSCRIBE_PATH, links.siteOrigin).href}?${UNSUBSCRIBE_TOKEN_PARAM}=${token}`;
  const oneClick = `${links.apiUrl.replace(/\/$/, '')}${UNSUBSCRIBE_PATH}?${UNSUBSCRIBE_TOKEN_PARAM}=${token}`;
  const settings = new URL('/notification-settings', links.siteOrigin).href;
  const why = `You receive this email because "${NOTIFICATION_TYPE_LABELS[content.type]}" is on for email in your notification settings.`;
  const { title, paragraphs, links: list = [], action } = content;

  const text = [
    title,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(list.length ? [...list.map((link) => `- ${link.label} ${link.detail}: ${link.url}`), ''] : []),
    ...(action ? [`${action.label}: ${action.url}`, ''] : []),
    '--',
    why,
    `Stop these emails: ${unsubscribePage}`,
    `All notification settings: ${settings}`,
  ].join('\n');
  const listHtml = list.length
    ? `<ul style="font-size:16px;line-height:1.5;margin:0 0 20px;padding-left:20px">${list
        .map((link) => `<li style="margin:0 0 8px"><a href="${escapeHtml(link.url)}" style="color:#2563eb;font-weight:600">${escapeHtml(link.label)}</a> ${escapeHtml(link.detail)}</li>`)
        .join('')}</ul>\n`
    : '';
  const actionHtml = action
    ? `<p style="margin:0 0 24px"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#2563eb;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600">${escapeHtml(action.label)}</a></p>\n`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px"><tr><td>
<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(title)}</h1>
${paragraphs.map((paragraph) => `<p style="font-size:16px;line-height:1.5;margin:0 0 20px">${escapeHtml(paragraph)}</p>`).join('\n')}
${listHtml}${actionHtml}<hr style="border:none;border-top:1px solid #e5e7eb;margin:0 0 12px">
<p style="font-size:13px;color:#4b5563;margin:0 0 4px">${escapeHtml(why)}</p>
<p style="font-size:13px;margin:0"><a href="${escapeHtml(unsubscribePage)}" style="color:#4b5563">Stop these emails</a> · <a href="${escapeHtml(settings)}" style="color:#4b5563">All notification settings</a></p>
</td></tr></table></body></html>`;
  return {
    subject: title,
    text,
    html,
    headers: [
      { name: 'List-Unsubscribe', value: `<${oneClick}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ],
  };
}

/** A notification as an email: its title and message, and the button to its subject. */
export function renderNotificationEmail(notification: Pick<AppNotification, 'type' | 'jobId' | 'metadata' | 'title' | 'message'>, role: Role, links: EmailLinks): RenderedEmail {
  const url = new URL(notificationTarget(notification, role), links.siteOrigin).href;
  return renderEmail(
    { type: notification.type, title: notification.title, paragraphs: [notification.message], action: { label: EMAIL_TEMPLATES[notification.type].action, url } },
    links,
  );
}

/** One job of a digest: a nearby job's alert, or a saved search's match (issue 46). */
export interface DigestEntry {
  jobId: string;
  title: string;
  location: string;
  miles: number;
  savedSearch?: true;
}

/**
 * What a digest is, and so its texts and what its unsubscribe link stops: a nearby-jobs digest
 * while any of its jobs is a nearby alert; a saved-searches digest when all are saved searches'
 * matches (a worker with nearby alerts off gets only those, and must be able to stop them).
 */
export const digestTypeOf = (jobs: readonly DigestEntry[]): 'new_job_nearby' | 'saved_search_match' =>
  jobs.every((job) => job.savedSearch) ? 'saved_search_match' : 'new_job_nearby';

/** The daily digest (functions/location/nearby-digest.ts): one link per job, with where it is and, for a nearby one, how far. */
export function renderDigestEmail(jobs: readonly DigestEntry[], links: EmailLinks): RenderedEmail {
  const type = digestTypeOf(jobs);
  const savedSearches = type === 'saved_search_match';
  return renderEmail(
    {
      type,
      title: savedSearches ? MSG.search.digestTitle(jobs.length) : MSG.notifications.digestTitle(jobs.length),
      paragraphs: [savedSearches ? MSG.search.digestIntro : MSG.notifications.digestIntro],
      links: jobs.map((job) => ({
        label: job.title,
        detail: job.savedSearch ? MSG.search.digestJobDetail(job.location) : MSG.notifications.digestJobDetail(job.location, job.miles.toFixed(1)),
        url: new URL(notificationTarget({ type, jobId: job.jobId, metadata: {} }, 'worker'), links.siteOrigin).href,
      })),
    },
    links,
  );
}
