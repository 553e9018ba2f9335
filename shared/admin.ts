/**
 * The admin console's shapes and rules (spec 2 §2 "Admin dashboard", §3, §9; DECISIONS.md
 * "Wave 2"), shared by the server that computes them and the screen that shows them.
 */
import type { JobCategory } from './categories.js';
import type { AdminPaymentRecord, Dispute, JobSummary, ReviewView, WorkerApplication } from './api.js';
import type { JobStatus } from './job-process.js';
import type { IdentityStatus } from './identity.js';
import type { PaymentAccount } from './payments.js';
import type { Role } from './roles.js';

/** Rows per page of every admin table (spec 2 §9). */
export const ADMIN_PAGE_SIZE = 50;

/** The admin_actions types (spec 2 §7) this console and the platform write. */
export const ADMIN_ACTION_TYPES = [
  'issue_refund',
  'release_payment',
  'cancel_job',
  'delete_job',
  'review_flagged_job',
  'edit_review',
  'update_dispute',
  'resolve_dispute_with_template',
  'bulk_resolve_disputes',
  'set_dispute_priority',
  /** Security events the platform records itself (spec 1 §6, §9). */
  'suspicious_payment',
  'repeated_auth_failures',
  'profile_security_violation',
  'insufficient_permissions',
  'hide_category',
  'show_category',
  /** A user deleted their account (the record holds their id and role only), and the 30-day sweep's check of it. */
  'delete_account',
  'verify_account_deletion',
  'suspend_user',
  'reinstate_user',
  'reset_user_password',
  'instant_payout',
  /** The admin removed a user's "ID verified" badge (issue 47). */
  'revoke_identity',
] as const;
export type AdminActionType = (typeof ADMIN_ACTION_TYPES)[number];

export interface AdminActionView {
  id: string;
  /** The admin's id, or 'system' for what the platform recorded itself. */
  adminId: string;
  actionType: AdminActionType;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  reason: string;
  createdAt: string;
}

export const FLAG_TYPES = ['scam', 'spam', 'inappropriate', 'off_platform_payment', 'other'] as const;
export type FlagType = (typeof FLAG_TYPES)[number];
export type FlagStatus = 'pending' | 'approved' | 'removed';

/** A report on a job, by a user or by the platform's own rules (`reporterId` 'system'). */
export interface FlaggedJob {
  id: string;
  jobId: string;
  jobTitle: string;
  reporterId: string;
  flagType: FlagType;
  reason: string;
  status: FlagStatus;
  adminNotes: string | null;
  reviewedBy: string | null;
  reviewedAt: string | null;
  createdAt: string;
  /** A report on one public question of the job (issue 45): its id and text as reported. */
  questionId?: string;
  questionText?: string;
}

/** What the admin console shows for a person whose profile is gone. */
export const UNKNOWN_USER = 'Unknown user';

/** GET /admin/flags: a report with its reporter's name (null for the platform's own flags and a user without a profile). */
export interface AdminFlaggedJob extends FlaggedJob {
  reporterName: string | null;
}

/** GET /admin/categories: one declared category's running figures (cents) and whether posters may choose it. */
export interface CategoryStats {
  category: JobCategory;
  hidden: boolean;
  openJobs: number;
  /** Completed or paid. */
  completedJobs: number;
  /** The mean worker payment of the category's jobs (drafts and deleted jobs aside); null without jobs. */
  averagePayment: number | null;
  /** Payments released to workers (paid jobs), as the markets count it. */
  revenue: number;
}

/** One market's running figures (DECISIONS.md "Markets"); money in cents. */
export interface MarketStats {
  /** "City, ST". */
  market: string;
  openJobs: number;
  jobsLast30Days: number;
  paidJobs: number;
  cancelledJobs: number;
  /** Payments released (what the workers of paid jobs received). */
  revenue: number;
  /** Platform fees of those paid jobs. */
  profit: number;
  /** null until a job was paid or cancelled there. */
  completionRate: number | null;
  /** Filled by the workers' location writes (the notifications issue); 0 until those exist. */
  workersWithLocation: number;
  workersWithAlerts: number;
}

/** How many days the market analytics look back: "jobs (30 days)" and the jobs-per-day chart. */
export const MARKET_RECENT_DAYS = 30;

/** The jobs posted on one UTC day (YYYY-MM-DD) in every market together: drafts and deleted jobs aside, as the markets count them. */
export interface MarketDay {
  day: string;
  jobs: number;
}

/** GET /admin/markets: every market's figures, and the jobs posted on each of the last 30 days, oldest first (zero on a day without any). */
export interface MarketAnalytics {
  items: MarketStats[];
  days: MarketDay[];
}

/** completion rate = paid ÷ (paid + cancelled), in percent; null with nothing finished. */
export function completionRate(paid: number, cancelled: number): number | null {
  return paid + cancelled === 0 ? null : Math.round((paid / (paid + cancelled)) * 1000) / 10;
}

/** Spec 2 §9: over 50000 cents 'High Performing', over 20000 'Growing', else 'Developing'. */
export function marketStatus(revenue: number): 'High Performing' | 'Growing' | 'Developing' {
  if (revenue > 50_000) return 'High Performing';
  if (revenue > 20_000) return 'Growing';
  return 'Developing';
}

/** Spec 2 §9: completion-rate icon thresholds 80 and 60 percent. */
export function completionLevel(rate: number | null): 'good' | 'fair' | 'poor' | 'none' {
  if (rate === null) return 'none';
  if (rate >= 80) return 'good';
  if (rate >= 60) return 'fair';
  return 'poor';
}

/** A job's market: its city and state as the poster typed them, trimmed ("Austin, TX"). */
export function marketOf(location: string): string {
  return location
    .split(',')
    .map((part) => part.trim().replace(/\s+/g, ' '))
    .join(', ');
}

/** The statuses the admin's Jobs tab filters by (drafts are the poster's own business). */
export const ADMIN_JOB_STATUSES: readonly JobStatus[] = ['open', 'assigned', 'completed', 'paid', 'cancelled'];

/** What the server flags on its own in a job's text (DECISIONS.md "How a job gets flagged"). */
const OFF_PLATFORM_PAYMENT = /\b(venmo|zelle|cash ?app|paypal|western union|pay (me |you )?(in )?cash|cash only|wire transfer|outside (of )?(the )?(platform|app|site))\b/i;
const PHONE_NUMBER = /(\+?1[\s.-]?)?\(?\b\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/;
const EMAIL_ADDRESS = /\b[\w.+-]+@[\w-]+\.[\w.-]+\b/;

/** The reasons a job's text gets an automatic flag; empty when it is clean. */
export function automaticFlagReasons(text: string): string[] {
  return [
    OFF_PLATFORM_PAYMENT.test(text) && 'asks for payment outside the platform',
    PHONE_NUMBER.test(text) && 'contains a phone number',
    EMAIL_ADDRESS.test(text) && 'contains an email address',
  ].filter((reason): reason is string => typeof reason === 'string');
}

/** Whether a user may sign in and act (DECISIONS.md "Suspension"); profiles stored before it have none: active. */
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** GET /admin/users: one row of the Users tab. */
export interface AdminUserSummary {
  id: string;
  name: string;
  email: string;
  role: Role;
  accountStatus: AccountStatus;
  /** Stripe verified their identity (issue 47). */
  identityVerified: boolean;
  createdAt: string;
}

/** GET /admin/users/{id}: the user's page (DECISIONS.md "Wave 3", issue 27). */
/** Why email to an address stopped: SES reported a permanent bounce or a complaint. */
export type EmailSuppressionReason = 'bounced' | 'complaint';
export interface EmailSuppression {
  reason: EmailSuppressionReason;
  at: string;
}

export interface AdminUserDetail {
  user: AdminUserSummary & {
    bio: string;
    location: string;
    rating: number | null;
    reviewCount: number;
    completedJobs: number;
    /** Why and when the admin suspended them; null while active. */
    suspension: { reason: string; at: string } | null;
    /** Why and since when the mailer sends them no email; null while it may. */
    emailStopped: EmailSuppression | null;
    /** Their identity check (issue 47): its status and when it was verified; null before they started one. */
    identity: { status: IdentityStatus; verifiedAt: string | null } | null;
  };
  paymentAccount: PaymentAccount & { connected: boolean };
  jobsPosted: JobSummary[];
  jobsWorked: JobSummary[];
  applications: WorkerApplication[];
  disputes: Dispute[];
  reviews: ReviewView[];
  payments: AdminPaymentRecord[];
  /** The admin_actions about this user (their target), newest first. */
  auditTrail: AdminActionView[];
}

/** The actions the user's page offers, by their route's last segment. */
export const USER_ACTIONS = ['suspend', 'reinstate', 'password-reset', 'identity-revocation'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];
