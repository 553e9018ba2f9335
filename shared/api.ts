/** Shapes of the HTTP API's responses, shared by the handlers and the web client. */
import type { JobCategory } from './categories.js';
import type { DisputePriority, DisputeStatus, DisputeType } from './disputes.js';
import type { JobStatus, MoneyState, TipState } from './job-process.js';
import type { IdentityStatus } from './identity.js';
import type { EarningsWeek } from './money.js';
import type { CounterStatus } from './offers.js';
import type { PaymentAccount } from './payments.js';
import type { PriceChangeStatus } from './price-changes.js';
import type { Role } from './roles.js';

export interface Page<T> {
  items: T[];
  /** Opaque; pass back as `?cursor=` for the next page. Null on the last page. */
  nextCursor: string | null;
}

export interface JobSummary {
  id: string;
  title: string;
  description: string;
  /** The short public form: "city, state". */
  location: string;
  /** Cents the worker receives. */
  payment: number;
  platformFee: number;
  /** Cents the poster pays: payment + platform fee. */
  postedAmount: number;
  category: JobCategory;
  date: string;
  duration: string;
  status: JobStatus;
  /** Where the poster's payment is (shared/job-process.ts); the web app offers what the process allows. */
  moneyState: MoneyState;
  posterId: string;
  workerId?: string;
  /** Applications waiting for the poster's decision (at most MAX_PENDING_APPLICATIONS). */
  pendingApplications: number;
  requirements: string[];
  skills: string[];
  images: string[];
  /** Only workers whose identity Stripe verified may apply (issue 47); false on jobs stored before it existed. */
  verifiedWorkersOnly: boolean;
  /** Workers apply with an offer; the payment is the budget (issue 45, shared/offers.ts); false on jobs stored before it existed. */
  openToOffers: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * An open job as its card in the grid shows it (GET /jobs, GET /feed/jobs). The search index
 * keeps one on each of its items so a search page is one read, so it holds only what the card
 * shows: the description cut to what the card's three lines can show, and the first image.
 */
export type JobCardSummary = Pick<JobSummary, 'id' | 'title' | 'description' | 'location' | 'payment' | 'postedAmount' | 'status' | 'posterId' | 'skills' | 'images' | 'verifiedWorkersOnly' | 'openToOffers' | 'createdAt'> & {
  /** A search's answer only (issue 46): miles from where the searcher is to the job's area, one decimal. */
  distanceMiles?: number;
  /** A search's answer only: the words (or parts of words) of the job the search matched, which the card marks. */
  matchedWords?: string[];
  /** A search's answer only: the centre of the job's area (a cell of about 1 km, never the address), where the map's pin goes. */
  area?: { latitude: number; longitude: number };
};

/** A worker's kept search (issue 46): new jobs that match it are told to them. */
export interface SavedSearch {
  id: string;
  /** The words, as typed ('' for any job). */
  text: string;
  category: JobCategory | null;
  radiusMiles: number;
  createdAt: string;
}

export interface PublicProfile {
  id: string;
  name: string;
  role: Role;
  profileImage: string | null;
  bio: string;
  skills: string[];
  /** Average of received reviews, one decimal; null while there are none. */
  rating: number | null;
  reviewCount: number;
  completedJobs: number;
  /** Stripe verified their identity (issue 47): the "ID verified" badge. */
  identityVerified: boolean;
  createdAt: string;
}

/**
 * A job as one of its two parties (the poster, the assigned worker) sees it: the public summary
 * plus what only they may read. Never pushed on the public feed.
 */
export interface PartyJob extends JobSummary {
  /** The poster's reason for declining the last completion; gone once the worker completes again. */
  declineReason?: string;
  /** When the poster accepted the worker. */
  assignedAt?: string;
  /**
   * While the job is completed and neither declined nor disputed: when its payment is released
   * to the worker automatically (DECISIONS.md "Wave 3").
   */
  autoReleaseAt?: string;
  /** When the payment was released to the worker (jobs released before it was kept have none). */
  releasedAt?: string;
  /** The poster's tip in cents, and when it was charged (at most one per job). */
  tip?: number;
  tippedAt?: string;
  /** The poster paused the auto-release (Wave 3): when, and the reason the worker sees. */
  autoReleasePausedAt?: string;
  autoReleasePauseReason?: string;
  /** The auto-release came due but could not pay the worker (their payment account is not ready): when, and why. */
  autoReleaseBlockedAt?: string;
  autoReleaseBlockedReason?: string;
  /** Why the job's money was refunded (a refund cancels the job). */
  refundReason?: string;
  /** A split's amounts: what the worker received and what the poster got back (cents). */
  splitToWorker?: number;
  splitRefunded?: number;
  /**
   * Refunded while the money was held, by a refund made in Stripe's dashboard (Wave 5): what is
   * held is the posted amount less this, and a release pays only what remains after the fee.
   */
  refundedWhileHeld?: number;
  /** What the worker's transfer was, once released: the payment, or less after a partial refund. */
  transferredAmount?: number;
  /** Where the job's tip is while it is not settled (shared/job-process.ts TIP_STATES). */
  tipState?: TipState;
  /** The poster's bank disputed the payment (a chargeback): shown to both parties and the admin. */
  chargeback?: JobChargeback;
  /** A release reversed by the admin: what the worker's balance returned, and what it could not (their debt). */
  reversal?: { recovered: number; unrecovered: number };
  /** The assigned worker's price change waiting for the poster's answer (issue 45). */
  priceChange?: PendingPriceChange;
}

/** A price change waiting for the poster (issue 45): the worker's new price (their pay, cents) and why. */
export interface PendingPriceChange {
  id: string;
  amount: number;
  reason: string;
  requestedAt: string;
  /** A higher price's charge waiting for the poster's card step (their bank asked): the approval after it finishes it. */
  topUpIntentId?: string;
}

/** The card step a charge of the poster's saved card waits for (their bank asked): the same request after it finishes it. */
export interface CardStepAnswer {
  status: 'card_needed';
  message: string;
  payment: { paymentIntentId: string; clientSecret: string; amount: number };
}

/** POST /jobs/{id}/price-change/approve: approved (the job at its new price), or the card step a higher price's charge waits for. */
export type PriceChangeAnswer = { status: 'approved'; job: PartyJob } | CardStepAnswer;

/** POST /jobs/{id}/applications/{workerId}/accept: the job as assigned, or the card step an offer above the budget waits for. */
export type AcceptAnswer = JobSummary | CardStepAnswer;

/** One price change of a job and where it ended (`GET /jobs/{id}/price-changes`: the parties and the admin). */
export interface PriceChange {
  id: string;
  jobId: string;
  workerId: string;
  /** The worker's pay before, and the pay asked for (cents). */
  from: number;
  amount: number;
  reason: string;
  status: PriceChangeStatus;
  requestedAt: string;
  answeredAt: string | null;
  /** The poster's reason for declining, if they gave one. */
  declineReason: string | null;
  /** What went back to the poster's card once a lower price was approved, or was charged to it for a higher one (cents). */
  refunded: number | null;
  charged: number | null;
}

/** A card chargeback on a job's payment, as Stripe reports it (charge.dispute.*). */
export interface JobChargeback {
  status: 'open' | 'won' | 'lost';
  /** Cents the bank took back while it decides. */
  amount: number;
  /** The bank's reason, as Stripe names it (fraudulent, product_not_received, ...). */
  reason: string;
  /** When the platform's evidence is due (ISO); null once it is no longer asked for. */
  evidenceDueBy: string | null;
  openedAt: string;
  closedAt?: string;
}

export interface JobDetail extends PartyJob {
  /** Street, city and state: present only for the owner and the assigned worker. */
  fullAddress?: string;
  poster: PublicProfile | null;
  /** For the poster: geocoding did not find the address, so no nearby worker is alerted ('Address not found'). */
  addressNotFound?: true;
}

/** Where a notification can reach its user (DECISIONS.md "Off-site delivery"). */
export const NOTIFICATION_CHANNELS = ['inApp', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelChoices = Record<NotificationChannel, boolean>;

export interface NotificationPreferences {
  enabled: boolean;
  radiusMiles: number;
  maxPerDay: number;
  quietHours: { enabled: boolean; start: string; end: string };
  jobCategories: JobCategory[];
  /** Per notification type, the channels it goes by (in-app nearby jobs also need `enabled`). */
  channels: Record<NotificationType, ChannelChoices>;
}

/** One stored record of a data export: an item as the table holds it, without its keys. */
export type ExportRecord = Record<string, unknown>;

/** GET /me/export: everything stored about the caller (functions/people/data-export.ts says what is left out). */
export interface DataExport {
  exportedAt: string;
  profile: ExportRecord;
  jobsPosted: ExportRecord[];
  jobsWorked: ExportRecord[];
  applications: ExportRecord[];
  /** The public questions the user asked on jobs, with the posters' answers (issue 45). */
  questionsAsked: ExportRecord[];
  /** The answers the user wrote, as a poster, to public questions on their jobs (without the askers' words). */
  answersWritten: ExportRecord[];
  savedJobs: ExportRecord[];
  messagesSent: ExportRecord[];
  reviewsWritten: ExportRecord[];
  reviewsAbout: ExportRecord[];
  notifications: ExportRecord[];
  payments: ExportRecord[];
  disputesFiled: ExportRecord[];
  disputesAbout: ExportRecord[];
  disputeMessagesSent: ExportRecord[];
  /** The browsers the user turned push on in: each push service's endpoint and when it was saved (not the browser's encryption keys). */
  pushSubscriptions: ExportRecord[];
  /** The searches the user keeps (issue 46): their words, category, radius and centre. */
  savedSearches: ExportRecord[];
}

export interface OwnProfile extends PublicProfile {
  email: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  locationUpdatedAt: string | null;
  notificationPreferences: NotificationPreferences;
  /** The IANA zone quiet hours (and a worker's alert days) run in: the browser's, saved with the location or the preferences; null before either. */
  timeZone: string | null;
  paymentAccount: PaymentAccount;
  /** Their identity check (issue 47); null before they started one. */
  identity: { status: IdentityStatus; verifiedAt: string | null } | null;
}

/** POST /me/identity-check: the Stripe Identity session the browser opens the verification modal with. */
export interface IdentityCheckStart {
  sessionId: string;
  clientSecret: string;
}

export interface AdminStatus {
  adminExists: boolean;
}

export interface ApiError {
  error: string;
  /** Field -> message, for form validation errors. */
  fields?: Record<string, string>;
}

export const NOTIFICATION_TYPES = [
  'new_job_nearby',
  'job_unassigned',
  'job_completed',
  'payment_released',
  'job_declined',
  'dispute_update',
  'worker_question',
  'application_rejected',
  'application_accepted',
  /** The admin cancelled or removed the poster's job, with the reason. */
  'job_moderated',
  /** Chat messages came while the recipient had no open connection: one per conversation per quiet period (issue 25). */
  'new_message',
  /** A worker applied to the poster's job (issue 25). */
  'new_applicant',
  /** A worker's Instant Payout failed after Stripe took it (payout.failed); the money is back in their balance. */
  'payout_failed',
  // Money (Wave 5): each its own type, so its email and push follow their own switches.
  /** The poster paused the auto-release of the worker's payment. */
  'payment_paused',
  /** The poster resumed it (or a dispute's resolution gave it back). */
  'payment_resumed',
  /** The auto-release came due but the worker's payment account cannot take it. */
  'payment_blocked',
  /** A payment (or a tip) went back to the poster: the admin's refund, a cancel, a dashboard refund. */
  'payment_refunded',
  /** The admin took a released payment back from the worker and refunded the poster. */
  'payment_reversed',
  /** The poster's bank disputed the payment: opened, won or lost. */
  'chargeback',
  /** Stripe verified the user's identity (issue 47). */
  'identity_verified',
  /** The user's identity check failed and may be tried again, or their verification is no longer valid (issue 47). */
  'identity_needs_retry',
  // Offers (issue 45): each its own type.
  /** A worker made an offer on the poster's job. */
  'offer_received',
  /** A worker changed or withdrew their offer. */
  'offer_changed',
  /** The poster countered the worker's offer. */
  'counter_offer',
  /** The worker accepted or declined the poster's counter-offer. */
  'counter_answered',
  /** The poster accepted the worker's offer: the job is theirs. */
  'offer_accepted',
  /** The poster chose another offer or declined this one. */
  'offer_declined',
  /** A worker asked a public question on the poster's job. */
  'question_asked',
  /** The poster answered the worker's question. */
  'question_answered',
  /** The assigned worker asked to change the job's price. */
  'price_change_requested',
  /** The poster approved the worker's price change. */
  'price_change_approved',
  /** The poster declined the worker's price change. */
  'price_change_declined',
  /** The poster's card was charged the difference of a higher price or an offer above the budget. */
  'payment_charged',
  /** A new job matches one of the worker's saved searches (issue 46). */
  'saved_search_match',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface AppNotification {
  id: string;
  jobId: string | null;
  type: NotificationType;
  title: string;
  message: string;
  metadata: Record<string, string>;
  read: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface SavedJob {
  savedAt: string;
  job: JobSummary;
}

/** What the WebSocket API pushes to browsers. */
export type LiveMessage =
  /** Job changes carry the cursor a reconnecting socket catches up from (shared/live.ts). */
  | { type: 'job.posted' | 'job.updated'; job: JobSummary; cursor: string }
  | { type: 'job.removed'; jobId: string; cursor: string }
  | { type: 'notification'; notification: AppNotification }
  /** The user read one notification (its id) or all of them (null), e.g. in another tab. */
  | { type: 'notifications.read'; notificationId: string | null }
  | DisputeLiveMessage
  | ReviewSavedMessage
  /** To the admin only: a payment row changed (paid, refunded, released). */
  | { type: 'payment.changed'; paymentId: string }
  | { type: 'chat.message'; conversationId: string; message: ChatMessage }
  /** The reader opened the conversation: everything up to `readUpTo` (a message position) is read. */
  | { type: 'chat.read'; conversationId: string; readerId: string; readUpTo: string }
  /** Blocked or unblocked: listeners re-read the conversation. */
  | { type: 'chat.updated'; conversationId: string };

/** POST /jobs answers with the draft job and what the card payment step needs. */
export interface JobPaymentStart {
  job: JobSummary;
  payment: { paymentIntentId: string; clientSecret: string; amount: number };
}

/**
 * POST /jobs/{id}/tip: the tip is paid (the job with it), or the saved card could not be charged
 * off-session (the bank asks for authentication, or declines) and the poster confirms this
 * PaymentIntent on the card step, then sends the same tip again to finish it.
 */
export type TipAnswer =
  | { status: 'paid'; job: PartyJob }
  | { status: 'card_needed'; message: string; payment: JobPaymentStart['payment'] };

/** A payment row, for the admin's transactions view. */
export interface PaymentRecord {
  id: string;
  jobId: string;
  jobTitle: string;
  posterId: string;
  workerId: string | null;
  /** Cents charged to the poster (payment + platform fee). */
  amount: number;
  platformFee: number;
  stripeFee: number;
  stripePaymentIntentId: string;
  status: 'succeeded' | 'refunded';
  /**
   * A tip: its own charge, transferred to the worker in full (no platform fee); a top-up: a
   * higher price's difference, one more charge of the job (issue 45); absent for a job's payment.
   */
  kind?: 'tip' | 'top_up';
  transferId: string | null;
  /** The admin's reason, once an admin refund was asked for. */
  refundReason?: string;
  /** Cents refunded so far (a refund of part of it: a split, a refund made in Stripe). */
  refundedAmount?: number;
  /** A chargeback on the payment, as Stripe last reported it. */
  chargeback?: { id: string; status: JobChargeback['status']; amount: number };
  createdAt: string;
}

/** GET /admin/payments: a payment with its people's names (null for a user without a profile). */
export interface AdminPaymentRecord extends PaymentRecord {
  posterName: string | null;
  workerName: string | null;
}

export interface Earnings {
  /** With each job's tip, if any. */
  paidJobs: PartyJob[];
  /** Payments and tips together. */
  totalEarned: number;
  totalTips: number;
  /**
   * Jobs whose released payment the admin took back (Wave 5), with what the worker's balance
   * returned and what it could not (`reversal`): the money they still owe.
   */
  reversedJobs: PartyJob[];
  owed: number;
  paymentAccount: PaymentAccount;
  /** The last EARNINGS_WEEKS weeks, oldest first, in the worker's time zone (the chart on My Earnings). */
  weeks: EarningsWeek[];
}

export type ApplicationStatus = 'pending' | 'accepted' | 'rejected';

/** A worker's application to a job; `updatedAt` is when it was accepted or rejected. */
export interface Application {
  id: string;
  jobId: string;
  workerId: string;
  posterId: string;
  status: ApplicationStatus;
  message: string | null;
  /** On a job open to offers: the worker's offer, in cents (what they would receive); null on a fixed-price job. */
  amount: number | null;
  /** When the worker can do it, in their words (an offer's optional line). */
  availability: string | null;
  /** The poster's one counter-offer, and the worker's answer to it. */
  counter: { amount: number; status: CounterStatus; at: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** A public question on a job and the poster's answer (GET /jobs/{id}/questions, issue 45). */
export interface JobQuestion {
  id: string;
  jobId: string;
  askerId: string;
  /** The asker's name as it is now (a deleted account: null). */
  askerName: string | null;
  text: string;
  answer: string | null;
  answeredAt: string | null;
  createdAt: string;
}

/** One applicant in the poster's list: the application and the worker's public profile. */
export interface ApplicantView {
  application: Application;
  worker: PublicProfile;
  /** The worker's success rate (spec 2 §9), shown beside their rating when choosing among offers (issue 45). */
  successRate: number | null;
}

/** GET /jobs/{id}/applications: applicants newest first, with the counts the tab shows. */
export interface ApplicationsOfJob {
  items: ApplicantView[];
  total: number;
  pending: number;
}

/** GET /me/applications: the worker's own applications with the job they are for. */
export interface WorkerApplication {
  application: Application;
  job: { id: string; title: string; status: JobStatus };
}

export interface Review {
  id: string;
  jobId: string;
  reviewerId: string;
  revieweeId: string;
  /** 1-5. */
  rating: number;
  comment: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * When the review became visible to everyone; null while it is hidden (double-blind: until
   * the other party reviewed too or the publication delay after the release passed). Only its
   * reviewer and the admin see a hidden review.
   */
  publishedAt: string | null;
}

/** A review about a user, as their reviews panel lists it. */
export interface ReviewView {
  review: Review;
  reviewer: { id: string; name: string; profileImage: string | null } | null;
  jobTitle: string;
}

export interface ChatMessage {
  /** Chosen by the sending client (a UUID): a resend with the same id is a no-op. */
  id: string;
  conversationId: string;
  senderId: string;
  content: string;
  /** Whether the other party has opened the conversation since it was sent. */
  read: boolean;
  createdAt: string;
  /** Where the message stands in its conversation: positions sort as the messages do. */
  position: string;
}

export type ConversationClosedReason = 'paid' | 'cancelled' | 'assignedElsewhere';

/** A conversation as one of its two parties sees it. */
export interface ConversationView {
  id: string;
  jobId: string;
  jobTitle: string;
  /** Null once the job is gone. */
  jobStatus: JobStatus | null;
  posterId: string;
  workerId: string;
  initiatedBy: string;
  isBlocked: boolean;
  /** Read-only for both parties: `closedReason` says why. */
  isClosed: boolean;
  /**
   * Why the conversation takes no more messages (null while it does): the job is paid, or
   * cancelled, or assigned to (or completed by) a worker other than this conversation's.
   */
  closedReason: ConversationClosedReason | null;
  /** The party that is not the viewer. */
  otherParty: PublicProfile | null;
  /** Messages the viewer has not read. */
  unreadCount: number;
  lastMessage: { content: string; senderId: string; createdAt: string } | null;
  createdAt: string;
  updatedAt: string;
}

/** GET /me/notifications/unread-count: exact up to the badge cap; `capped` past it ('99+'). */
export interface UnreadCount {
  count: number;
  capped: boolean;
}
/** A dispute between the two parties of a job (spec 2 §3), with the job's title. */
export interface Dispute {
  id: string;
  jobId: string;
  jobTitle: string;
  reporterId: string;
  reportedId: string;
  type: DisputeType;
  priority: DisputePriority;
  description: string;
  status: DisputeStatus;
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
  /** What the resolution decided of the job's money (cents), when it decided any (DECISIONS.md "Wave 4"). */
  moneyOutcome?: DisputeMoneyOutcome;
  createdAt: string;
  updatedAt: string;
}

/** A resolution's decision on money held for the job: to the worker, back to the poster, or split. */
export interface DisputeMoneyOutcome {
  decision: 'release' | 'refund' | 'split';
  toWorker: number;
  refunded: number;
}

/** GET /conversations/{id}: the conversation and its latest messages, oldest first. */
export interface ConversationDetail {
  conversation: ConversationView;
  messages: ChatMessage[];
  /** Pass as `?before=` to GET /conversations/{id}/messages for older messages; null when none. */
  olderCursor: string | null;
}

/** An admin's row: the dispute with its parties' names. */
export interface AdminDispute extends Dispute {
  reporterName: string | null;
  reportedName: string | null;
}

export interface DisputeMessage {
  id: string;
  disputeId: string;
  senderId: string;
  message: string;
  isAdmin: boolean;
  createdAt: string;
}

/** GET /disputes/{id}/messages: the dispute and its thread, oldest first. */
export interface DisputeThread {
  dispute: Dispute;
  messages: DisputeMessage[];
}

/**
 * GET /jobs/{id}/dispute: what the Dispute Center shows the viewer (spec 2 §2): the form, the
 * 'Dispute Under Review' confirmation, or 'Unable to Submit Dispute'.
 */
export type DisputeCenterState =
  | { state: 'form'; jobId: string; jobTitle: string; reportedId: string }
  | { state: 'under_review'; jobId: string; jobTitle: string; dispute: Dispute }
  | { state: 'unable'; jobId: string };

export interface ResolutionTemplate {
  id: string;
  title: string;
  resolutionText: string;
  /** Null: fits every type. */
  disputeType: DisputeType | null;
}

/** POST /admin/disputes/bulk-resolve: the bulk record and the outcome per dispute. */
export interface BulkResolveResult {
  bulkActionId: string;
  resolved: string[];
  failed: { disputeId: string; error: string }[];
}

/** Live dispute events go to both parties and the admin. */
export type DisputeLiveMessage = { type: 'dispute.message'; message: DisputeMessage } | { type: 'dispute.updated'; dispute: Dispute };

/**
 * GET /me/dashboard: the caller's dashboard in one call. Jobs are the caller's own, newest first
 * (a poster's posted jobs, a worker's assigned ones) with the parties' private fields; reviews
 * are the newest about the caller, with their average and count.
 */
export interface Dashboard {
  role: 'poster' | 'worker';
  jobs: PartyJob[];
  /** Cents: a worker's earnings (sum of payments of paid jobs); 0 for a poster. */
  totalEarnings: number;
  /** A worker's (completed + paid) ÷ all their jobs, in whole percent; null for a poster or while there are no jobs. */
  successRate: number | null;
  rating: number | null;
  reviewCount: number;
  reviews: Page<ReviewView>;
}

/** Pushed to a user when a review about them is written or changed. */
export interface ReviewSavedMessage {
  type: 'review.saved';
  review: Review;
}

/** GET /admin/money/decisions: a money decision still waiting for its Stripe calls (functions/money/executor.ts). */
export interface PendingMoneyDecision {
  id: string;
  /** release, refund, split, reverse, reprice (an offer accepted under the budget), priceChange (a lower price approved), void (a draft's payment), tipCharge, tipTransfer, tipRefund, payout. */
  action: string;
  jobId: string | null;
  label: string;
  amount: number;
  decidedAt: string;
  attempts: number;
  /** Why the last attempt did not finish it (Stripe's message). */
  lastError: string | null;
}

/**
 * GET /admin/payments/{id}/reversal: what a refund after release would take back, before the
 * admin confirms (Wave 5): the worker, the transfer, and how much of it their Stripe balance
 * still holds; the rest would be the platform's loss and the worker's debt.
 */
export interface ReversalPreview {
  jobId: string;
  workerId: string;
  workerName: string | null;
  transferred: number;
  /** What the worker's available balance can return now. */
  recoverable: number;
  /** transferred − recoverable. */
  unrecoverable: number;
  /** What the poster gets back: everything they paid that is not already refunded. */
  refund: number;
}
