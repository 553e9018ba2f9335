import type { JobSummary } from '../shared/api.js';
import { OUTBOX_PREFIX } from './table.js';

/**
 * Every entry point of the backend, declared once. The CDK API stack creates one Lambda per
 * group and wires its routes, rules and triggers from here; the local stack's gateways read the
 * same declarations and invoke the same handler modules. Nothing else lists routes.
 */

/** Who may call a route. `user` and `admin` need a valid ID token; `admin` also the admin group. */
export type Access = 'public' | 'user' | 'admin';

/**
 * What a function may touch. Each capability maps to one least-privilege grant and the
 * environment variables that go with it (CAPABILITY_GRANTS below), in AWS and locally alike.
 */
export type Capability =
  | 'table:read'
  | 'table:write'
  | 'images:read'
  | 'images:write'
  | 'events:put'
  | 'sockets:push'
  | 'userpool:admin-group'
  | 'userpool:create-admin'
  /** Account deletion: checks the user's password (AdminInitiateAuth) and deletes the user (AdminDeleteUser). */
  | 'userpool:delete-user'

  /** Disables, enables, signs out and resets the password of a user (the admin's user actions). */
  | 'userpool:manage-users'
  | 'geocoding'
  | 'stripe'
  /** Sends to the job feed's fan-out queue (QUEUE_CONSUMERS.jobFeedShard). */
  | 'queue:job-feed'
  /**
   * Creates and deletes the one-time schedules of the auto-release group (AUTO_RELEASE), each
   * invoking SCHEDULE_TARGETS.autoRelease through the scheduler's role, which it may pass.
   */
  | 'schedules:auto-release'
  /**
   * Reads, lists and deletes the schedules of the auto-release group a deployment older than
   * 28 Nov 2026 made (its name was fixed by the construct's path; PREVIOUS_AUTO_RELEASE_SCHEDULE_GROUP),
   * and deletes that group once they are moved (functions/money/deploy/release-schedule-move.ts).
   */
  | 'schedules:previous-auto-release'
  /** Sends to the mail queue (QUEUE_CONSUMERS.mailer), with a delay where quiet hours hold an email or a push back. */
  | 'queue:mail'
  /**
   * Sends email through SES v2 from the deploy's sender identity (`-c sesFromAddress`) only,
   * with the configuration set whose bounces and complaints reach TOPIC_CONSUMERS.sesFeedback.
   */
  | 'mail:send'
  /** Reads the key that signs and checks one-click unsubscribe tokens (functions/lib/unsubscribe-tokens.ts). */
  | 'mail:unsubscribe-key'
  /** Reads the VAPID keys that sign and address web pushes (functions/lib/web-push.ts). */
  | 'push:vapid';

export interface FunctionDeclaration {
  /** Module path from the repository root; the module exports `handler`. */
  readonly entry: string;
  readonly capabilities: readonly Capability[];
  /**
   * Settings the function reads beyond what its capabilities give it, by their ENV keys. The
   * stack wiring the function offers their values (infra/stacks/*); the local stack gives its
   * own or, where a setting is AWS-only, none.
   */
  readonly settings?: readonly Setting[];
  readonly timeoutSeconds?: number;
  readonly memoryMiB?: number;
}

export interface HttpRouteGroup extends FunctionDeclaration {
  /** "METHOD /path/{param}" -> access. */
  readonly routes: Readonly<Record<string, Access>>;
}

/**
 * Functions that call Stripe get time for two Stripe requests at their worst (each 4 s, retried
 * once: STRIPE_CLIENT_LIMITS in functions/lib/stripe.ts) and the table writes around them.
 */
export const STRIPE_FUNCTION_TIMEOUT_SECONDS = 20;

/**
 * Signed-in routes whose operation reads the caller's suspension with its own reads (in the
 * same BatchGetItem) and refuses a suspended caller before it writes, rather than the route
 * group asking before the operation starts: one round trip less on the busiest write path.
 */
export const OPERATIONS_CHECKING_SUSPENSION: ReadonlySet<string> = new Set<HttpRouteKey>(['POST /conversations/{id}/messages']);

export const HTTP_ROUTE_GROUPS = {
  accounts: {
    entry: 'functions/people/http/accounts.ts',
    capabilities: ['table:read'],
    routes: {
      'GET /accounts/admin-status': 'public',
    },
  },
  profiles: {
    entry: 'functions/people/http/profiles.ts',
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write'],
    routes: {
      'GET /me': 'user',
      'PATCH /me': 'user',
      'GET /profiles/{id}': 'user',
      'GET /me/export': 'user',
    },
  },
  /**
   * Account deletion (issue 27): its own function, the only one that may delete a Cognito user.
   * images: the avatar is deleted; sockets: the user's open connections are closed.
   */
  accountDeletion: {
    entry: 'functions/people/http/account-deletion.ts',
    // stripe: the account's open jobs are refunded and its drafts' payments cancelled as they are withdrawn.
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write', 'sockets:push', 'userpool:delete-user', 'stripe'],
    timeoutSeconds: 29,
    routes: {
      'POST /me/deletion': 'user',
    },
  },
  uploads: {
    entry: 'functions/jobs/http/uploads.ts',
    // table:read: every signed-in request asks whether its caller is suspended (functions/lib/suspension.ts);
    // table:write: and spends the caller's budget (functions/lib/client-budget.ts).
    capabilities: ['table:read', 'table:write', 'images:write'],
    routes: {
      'POST /uploads/images': 'user',
    },
  },
  jobs: {
    entry: 'functions/jobs/http/jobs.ts',
    // stripe, sockets:push: a cancel or delete refunds the poster (or cancels a draft's payment) and the admin's console shows it.
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write', 'stripe', 'sockets:push'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    routes: {
      'GET /jobs': 'public',
      'GET /feed/jobs': 'user',
      'GET /jobs/{id}': 'user',
      'POST /jobs': 'user',
      'PUT /jobs/{id}': 'user',
      'POST /jobs/{id}/cancel': 'user',
      'POST /jobs/{id}/unassign': 'user',
      'DELETE /jobs/{id}': 'user',
      'GET /me/jobs': 'user',
    },
  },
  payments: {
    entry: 'functions/money/http/payments.ts',
    capabilities: ['table:read', 'table:write', 'images:read', 'stripe', 'sockets:push'],
    /** Where Stripe's onboarding returns to. */
    settings: ['siteOrigin'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    routes: {
      'POST /payments/account': 'user',
      'POST /payments/account/status': 'user',
      'POST /payments/confirm': 'user',
      'GET /jobs/{id}/payment': 'user',
      'POST /jobs/{id}/release-payment': 'user',
      'POST /jobs/{id}/tip': 'user',
      'GET /me/earnings': 'user',
      'GET /me/payouts/instant': 'user',
      'POST /me/payouts/instant': 'user',
      'GET /admin/payments': 'admin',
      'GET /admin/payments/overview': 'admin',
      'GET /admin/payments/overview/series': 'admin',
      'GET /admin/payments/{id}/reversal': 'admin',
      'POST /admin/payments/{id}/refund': 'admin',
      'GET /admin/money/decisions': 'admin',
      'POST /admin/money/decisions/{id}/retry': 'admin',
    },
  },
  stripeWebhook: {
    entry: 'functions/money/http/stripe-webhook.ts',
    capabilities: ['table:write', 'stripe'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    routes: {
      'POST /webhooks/stripe': 'public',
      'POST /webhooks/stripe/connect': 'public',
    },
  },
  savedJobs: {
    entry: 'functions/jobs/http/saved-jobs.ts',
    capabilities: ['table:read', 'table:write', 'images:read'],
    routes: {
      'GET /me/saved-jobs': 'user',
      'PUT /me/saved-jobs/{jobId}': 'user',
      'DELETE /me/saved-jobs/{jobId}': 'user',
    },
  },
  notifications: {
    entry: 'functions/notifications/http/notifications.ts',
    capabilities: ['table:read', 'table:write'],
    routes: {
      'GET /me/notifications': 'user',
      'GET /me/notifications/unread-count': 'user',
      'POST /me/notifications/{id}/read': 'user',
      'POST /me/notifications/read-all': 'user',
    },
  },
  applications: {
    entry: 'functions/applications/http/applications.ts',
    capabilities: ['table:read', 'table:write', 'images:read'],
    /** A completion sets when its payment is released automatically. */
    settings: ['autoReleaseSeconds'],
    routes: {
      'POST /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications/mine': 'user',
      'POST /jobs/{id}/applications/{workerId}/accept': 'user',
      'POST /jobs/{id}/applications/{workerId}/reject': 'user',
      'POST /jobs/{id}/complete': 'user',
      'POST /jobs/{id}/decline-completion': 'user',
      'POST /jobs/{id}/auto-release/pause': 'user',
      'POST /jobs/{id}/auto-release/resume': 'user',
      'GET /me/applications': 'user',
    },
  },
  reviews: {
    entry: 'functions/reviews/http/reviews.ts',
    capabilities: ['table:read', 'table:write', 'images:read'],
    routes: {
      'POST /jobs/{id}/reviews': 'user',
      'PUT /jobs/{id}/reviews/{reviewerId}': 'user',
      'GET /profiles/{id}/reviews': 'user',
      'GET /jobs/{id}/reviews': 'user',
    },
  },
  location: {
    entry: 'functions/location/http/location.ts',
    // images:read: the answer is the caller's profile, whose avatar is an image URL.
    capabilities: ['table:read', 'table:write', 'images:read', 'geocoding'],
    routes: {
      'PUT /me/location': 'user',
      'PUT /me/notification-preferences': 'user',
    },
  },
  disputes: {
    entry: 'functions/disputes/http/disputes.ts',
    /** images:read: a dispute that stops a pending auto-release writes the job's event, whose summary carries its image URLs. */
    // stripe: a resolution decides the job's held money (a transfer, a refund or both).
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push', 'stripe'],
    /** A resolution that decides no money gives the auto-release back, at least a day (or the local delay) from then. */
    settings: ['autoReleaseSeconds'],
    /** A bulk resolution of 100 disputes is 100 transactions; the HTTP API waits at most 30 s. */
    timeoutSeconds: 29,
    routes: {
      'GET /jobs/{id}/dispute': 'user',
      'POST /jobs/{id}/dispute': 'user',
      'GET /me/disputes': 'user',
      'GET /disputes/{id}/messages': 'user',
      'POST /disputes/{id}/messages': 'user',
      'GET /admin/disputes': 'admin',
      'PUT /admin/disputes/{id}/priority': 'admin',
      'POST /admin/disputes/{id}/resolve': 'admin',
      'POST /admin/disputes/bulk-resolve': 'admin',
      'GET /admin/dispute-templates': 'admin',
    },
  },
  dashboards: {
    entry: 'functions/dashboards/http/dashboards.ts',
    capabilities: ['table:read', 'images:read'],
    routes: {
      'GET /me/dashboard': 'user',
    },
  },
  /** The admin console (issue 13) and the job reports it reviews. */
  admin: {
    entry: 'functions/admin/http/admin.ts',
    // images:read: the job summaries it answers with carry their photos' URLs; stripe, sockets:push: removing a flagged job refunds it.
    capabilities: ['table:read', 'table:write', 'images:read', 'stripe', 'sockets:push'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    routes: {
      'POST /jobs/{id}/flags': 'user',
      'GET /admin/jobs': 'admin',
      'GET /admin/jobs/{id}/ledger': 'admin',
      'GET /admin/flags': 'admin',
      'POST /admin/flags/{jobId}/review': 'admin',
      'GET /admin/markets': 'admin',
      'GET /admin/actions': 'admin',
      'GET /admin/categories': 'admin',
      'PUT /admin/categories': 'admin',
      'GET /categories/hidden': 'user',
      'GET /categories/earnings': 'public',
    },
  },
  /** The admin's Users tab and user page (issue 27): search, suspend, reinstate, password reset. */
  users: {
    entry: 'functions/admin/http/users.ts',
    // sockets:push: a suspension closes the user's sockets; images:read: job summaries carry their photos' URLs.
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push', 'userpool:manage-users'],
    routes: {
      'GET /admin/users': 'admin',
      'GET /admin/users/{id}': 'admin',
      'POST /admin/users/{id}/suspend': 'admin',
      'POST /admin/users/{id}/reinstate': 'admin',
      'POST /admin/users/{id}/password-reset': 'admin',
    },
  },
  conversations: {
    entry: 'functions/chat/http/conversations.ts',
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push'],
    routes: {
      'GET /conversations': 'user',
      'POST /conversations': 'user',
      'GET /conversations/{id}': 'user',
      'GET /conversations/{id}/messages': 'user',
      'POST /conversations/{id}/messages': 'user',
      'POST /conversations/{id}/read': 'user',
      'PUT /conversations/{id}/block': 'user',
      'DELETE /conversations/{id}/block': 'user',
      'GET /me/unread-messages': 'user',
    },
  },
  /** RFC 8058 one-click unsubscribe: the signed token in the link is the only credential. */
  unsubscribe: {
    entry: 'functions/notifications/http/unsubscribe.ts',
    capabilities: ['table:read', 'table:write', 'mail:unsubscribe-key'],
    routes: {
      'POST /unsubscribe': 'public',
    },
  },
  /** Web push (issue 25): the key a browser subscribes with, and the caller's subscriptions. */
  pushSubscriptions: {
    entry: 'functions/notifications/http/push-subscriptions.ts',
    capabilities: ['table:read', 'table:write', 'push:vapid'],
    routes: {
      'GET /push/public-key': 'public',
      'PUT /me/push-subscriptions': 'user',
      'DELETE /me/push-subscriptions': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export type HttpRouteGroupName = keyof typeof HTTP_ROUTE_GROUPS;
/** The route keys of one group, e.g. RouteKeyOf<'jobs'> = 'GET /jobs' | ... */
export type RouteKeyOf<G extends HttpRouteGroupName> = keyof (typeof HTTP_ROUTE_GROUPS)[G]['routes'] & string;
/** Every route key of the HTTP API. */
export type HttpRouteKey = { [G in HttpRouteGroupName]: RouteKeyOf<G> }[HttpRouteGroupName];

/**
 * The WebSocket API: one function serves $connect, $disconnect and $default; the authorizer
 * runs on $connect with the token from the `token` query parameter ('anonymous' for visitors,
 * who receive only the public job feed).
 */
export const WEBSOCKET_API = {
  authorizer: { entry: 'functions/live/ws/authorizer.ts', capabilities: [], settings: ['userPoolId', 'userPoolClientId', 'tokenIssuer'] },
  /** Also answers on the connection: pongs, subscription replies and catch-up pushes. */
  connections: { entry: 'functions/live/ws/connections.ts', capabilities: ['table:read', 'table:write', 'sockets:push'], settings: ['clientBudgetPerMinute'] },
  routes: ['$connect', '$disconnect', '$default'],
  identityQueryParameter: 'token',
} as const satisfies {
  authorizer: FunctionDeclaration;
  connections: FunctionDeclaration;
  routes: readonly string[];
  identityQueryParameter: string;
};

/** The `source` of every event our code puts on the bus. */
export const EVENT_SOURCE = {
  jobs: 'oddjobs.jobs',
  notifications: 'oddjobs.notifications',
  /** Verified Stripe webhook events; the detail-type is Stripe's event type. */
  stripe: 'oddjobs.stripe',
  reviews: 'oddjobs.reviews',
} as const;

export const JOB_EVENT = {
  posted: 'Job Posted',
  updated: 'Job Updated',
  removed: 'Job Removed',
} as const;

/**
 * The detail of every job event. `change` names what happened on an update (rules can match
 * on it: the payments rule refunds on `cancelled`); `job` is the public summary, or on
 * removal the job as it was.
 */
export type JobChange =
  | 'posted'
  | 'edited'
  | 'applications'
  | 'cancelled'
  | 'unassigned'
  | 'assigned'
  | 'completed'
  | 'declined'
  | 'disputed'
  /** The poster paused the auto-release (its schedules go), or it was given back (resumed, or a dispute resolved without deciding the money). */
  | 'autoReleasePaused'
  | 'autoReleaseScheduled'
  /** The auto-release came due and the worker's account could not take it. */
  | 'releaseBlocked'
  | 'paid'
  /** Stripe's dashboard refunded part of the held money (the job stays as it was, holding less). */
  | 'refundedInPart'
  /** The poster's bank opened, won or lost a chargeback on the job's payment (shown on the job). */
  | 'chargeback'
  | 'deleted'
  /** The poster was suspended: the open job leaves the feed and search (`posterSuspended`), and comes back when they are reinstated. */
  | 'hidden'
  | 'shown';
export interface JobEventDetail {
  /** The public summary plus, for paid jobs, what the payments rules need. */
  job: JobSummary & { paidAt?: string; stripePaymentIntentId?: string; refundReason?: string };
  change: JobChange;
  /** When a completed job's payment is released automatically (only its parties see it, so not in `job`). */
  autoReleaseAt?: string;
}

/**
 * The job changes a job rule is invoked for, where it acts on fewer than all: EventBridge
 * filters out the rest, so a rule runs (and is paid for) only when it has something to do.
 * Each rule reads the job as it is now, so a change it skips needs no catching up.
 */
export const JOB_RULE_CHANGES = {
  /** What a job says and where it is change only when it is posted or edited (geocoding, automatic flags). */
  textAndAddress: ['posted', 'edited'],
  /**
   * These leave a job's search entry as it was: a job is open neither before nor after the
   * status changes, and its card does not show the applicant count.
   */
  sameSearchEntry: ['applications', 'completed', 'declined', 'disputed', 'autoReleasePaused', 'autoReleaseScheduled', 'releaseBlocked', 'paid', 'refundedInPart', 'chargeback'],
  /** These leave a job's status, category, price, market and day as they were: its market figures stay. */
  sameMarketFigures: ['applications', 'autoReleasePaused', 'autoReleaseScheduled', 'releaseBlocked', 'hidden', 'shown', 'refundedInPart', 'chargeback'],
} as const satisfies Record<string, readonly JobChange[]>;

/**
 * A job rule's `detail` pattern on the event's change. An event written before every job event
 * named its change (posting named none) may still arrive after a deploy, from the relay's
 * retries or a redrive: it matches too, as it did before the rules filtered.
 */
const onChange = (changes: readonly unknown[]) => ({ $or: [{ change: changes }, { change: [{ exists: false }] }] });

/**
 * Auto-release (DECISIONS.md "Wave 3"): a completed job is released this long after the worker
 * marks it completed (a deploy setting, `-c autoReleaseHours`; locally AUTO_RELEASE_SECONDS),
 * with reminders to the poster at these fractions of the delay before it (1/3 and 1/36: 24 h
 * and 2 h before of the default 72 h, scaled for a shorter delay).
 */
export const AUTO_RELEASE = {
  defaultHours: 72,
  reminderFractions: [1 / 3, 1 / 36],
  /** The job changes after which no release may be pending: the rule deletes the job's schedules. */
  cancellingChanges: ['declined', 'disputed', 'autoReleasePaused', 'paid', 'cancelled', 'unassigned', 'deleted'],
  /** The job changes that (re)start a countdown: its schedules are made for the job's `autoReleaseAt`. */
  schedulingChanges: ['completed', 'autoReleaseScheduled'],
} as const satisfies { defaultHours: number; reminderFractions: readonly number[]; cancellingChanges: readonly JobChange[]; schedulingChanges: readonly JobChange[] };

/**
 * Double-blind reviews (issue 26): each side's review of a job stays hidden until both have
 * reviewed or this long after the payment is released (a schedule of the job publishes them
 * then; locally REVIEW_PUBLICATION_SECONDS shortens it for a demo or a test).
 */
export const REVIEW_PUBLICATION = { defaultDays: 7 } as const;

/** Changes of one job within this many seconds are pushed once, as the newest (SQS delays whole seconds). */
export const LIVE_COALESCING = { defaultSeconds: 1 } as const;

// sockets:push: a payment row they change is pushed to the admin's console.
const STRIPE_RULE_CAPABILITIES = ['table:read', 'table:write', 'images:read', 'stripe', 'sockets:push'] as const;

/**
 * `createdInBulk`: many new notifications in one event ({notifications: [{userId, notification}]}),
 * so a writer of many (the nearby-job alerts) hands them to live and web push in one invocation
 * each rather than one per notification (issue 24).
 */
export const NOTIFICATION_EVENT = { created: 'Notification Created', createdInBulk: 'Notifications Created', read: 'Notifications Read' } as const;

/** A review was written or changed by the admin; the detail is the review. */
export const REVIEW_EVENT = { saved: 'Review Saved' } as const;

/** An EventBridge event pattern: exact values per field, nested detail fields, `exists`. */
export interface EventPattern {
  readonly source: readonly string[];
  readonly 'detail-type'?: readonly string[];
  readonly detail?: Readonly<Record<string, unknown>>;
}

export interface EventRule extends FunctionDeclaration {
  readonly description: string;
  readonly pattern: EventPattern;
  /**
   * A rule of Stripe events (source EVENT_SOURCE.stripe): the webhook endpoint they arrive at,
   * `connect` for events of connected accounts (Stripe sends those to Connect endpoints only),
   * else the account's own endpoint. STRIPE_WEBHOOK_ENDPOINTS subscribes each to these types.
   */
  readonly stripeEndpoint?: StripeWebhookEndpoint;
}

export const EVENT_RULES = {
  jobFeed: {
    description: 'Holds job inserts, updates and removals for one coalesced push to the browsers subscribed to them',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed] },
    entry: 'functions/live/events/job-feed.ts',
    capabilities: ['table:write', 'queue:job-feed'],
    /** How long changes of one job are gathered into one push. */
    settings: ['liveCoalescingSeconds'],
  },
  notificationPush: {
    description: 'Delivers new notifications live to the user they are for',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created, NOTIFICATION_EVENT.createdInBulk, NOTIFICATION_EVENT.read] },
    entry: 'functions/notifications/events/notification-push.ts',
    capabilities: ['table:read', 'table:write', 'sockets:push'],
  },
  geocoding: {
    description: 'Geocodes a job address after it is posted or edited (best effort)',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated], detail: onChange(JOB_RULE_CHANGES.textAndAddress) },
    entry: 'functions/jobs/events/geocode-job.ts',
    capabilities: ['table:read', 'table:write', 'geocoding'],
    memoryMiB: 512,
  },
  paymentSucceeded: {
    description: 'Opens a paid job, or settles a tip, when Stripe reports its payment succeeded (once, with the client confirmation)',
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['payment_intent.succeeded'] },
    entry: 'functions/money/events/payment-succeeded.ts',
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
  accountUpdated: {
    description: 'Keeps profiles in line with their Stripe connected accounts',
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['account.updated'] },
    stripeEndpoint: 'connect',
    entry: 'functions/money/events/account-updated.ts',
    // A ready account makes the auto-releases it blocked (a release: a transfer, the job's event and the admin's push).
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
  refundCreated: {
    description: "Takes a refund into the money process: one of its decisions' (carried out), or one made in Stripe's dashboard (held money lowered, or the platform's loss)",
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['refund.created'] },
    entry: 'functions/money/events/refund-created.ts',
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
  transferCreated: {
    description: 'Carries out the money decision whose transfer Stripe made, should its own call have died after it',
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['transfer.created'] },
    entry: 'functions/money/events/transfer-created.ts',
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
  chargebacks: {
    description: "Takes a card's chargeback into the money process: the job's held money frozen, what the bank took in the ledger, its outcome recorded, everyone told",
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.closed', 'charge.dispute.funds_reinstated'] },
    entry: 'functions/money/events/chargeback.ts',
    // images:read: the job's event carries its image URLs.
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push'],
    /** A chargeback won gives a completed job's auto-release back, at least the minimum from now (its delay when shorter). */
    settings: ['autoReleaseSeconds'],
  },
  payoutSettled: {
    description: "Records how a payout of a worker's connected account ended: an Instant Payout (paid, or failed with the worker's notification), or the account's own standard payout taken into the ledger",
    pattern: { source: [EVENT_SOURCE.stripe], 'detail-type': ['payout.paid', 'payout.failed'] },
    // The payouts are the connected accounts' (Instant Payouts to their cards, and their automatic ones).
    stripeEndpoint: 'connect',
    entry: 'functions/money/events/payout-settled.ts',
    // stripe: an Instant Payout's decision is carried out first, should the webhook beat the request's own settlement;
    // images:read: the executor it runs carries every plan, a job's with its event's image URLs.
    capabilities: ['table:read', 'table:write', 'stripe', 'sockets:push', 'images:read'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
  searchIndex: {
    description: 'Keeps the open-jobs search index in line with every job change',
    pattern: {
      source: [EVENT_SOURCE.jobs],
      'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed],
      detail: onChange([{ 'anything-but': JOB_RULE_CHANGES.sameSearchEntry }]),
    },
    entry: 'functions/search/events/search-index.ts',
    capabilities: ['table:read', 'table:write'],
  },
  nearbyJobAlerts: {
    description: 'Alerts workers near a job that just opened (radius, categories, daily limit, quiet hours)',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted] },
    entry: 'functions/location/events/nearby-job-alerts.ts',
    capabilities: ['table:read', 'table:write', 'geocoding'],
    timeoutSeconds: 60,
    memoryMiB: 512,
  },
  reviewPush: {
    description: 'Delivers a new or changed review live to the user it is about',
    pattern: { source: [EVENT_SOURCE.reviews], 'detail-type': [REVIEW_EVENT.saved] },
    entry: 'functions/reviews/events/review-push.ts',
    capabilities: ['table:read', 'table:write', 'sockets:push'],
  },
  marketStats: {
    description: 'Keeps the per-market analytics (running aggregates) in line with every job change',
    pattern: {
      source: [EVENT_SOURCE.jobs],
      'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed],
      detail: onChange([{ 'anything-but': JOB_RULE_CHANGES.sameMarketFigures }]),
    },
    entry: 'functions/admin/events/market-stats.ts',
    capabilities: ['table:read', 'table:write'],
  },
  autoReleaseSchedules: {
    description:
      "Schedules a completed job's automatic release and the poster's reminders; deletes them when the job leaves completed or is disputed; schedules a paid job's review publication",
    pattern: {
      source: [EVENT_SOURCE.jobs],
      'detail-type': [JOB_EVENT.updated, JOB_EVENT.removed],
      detail: { change: [...AUTO_RELEASE.schedulingChanges, ...AUTO_RELEASE.cancellingChanges] },
    },
    entry: 'functions/money/events/auto-release-schedules.ts',
    capabilities: ['schedules:auto-release'],
    /** A release schedules the publication of the job's reviews this long after it. */
    settings: ['reviewPublicationSeconds'],
  },
  notificationWebPush: {
    description: 'Sends each new notification by web push to the browsers of its user who chose push for its type',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created, NOTIFICATION_EVENT.createdInBulk] },
    entry: 'functions/notifications/events/notification-web-push.ts',
    /** The mail queue holds a push back during the user's quiet hours, as it holds email (QUEUE_CONSUMERS.mailer pushes it after). */
    capabilities: ['table:read', 'table:write', 'push:vapid', 'queue:mail'],
  },
  jobFlags: {
    description: 'Flags a posted or edited job whose text asks for off-platform payment or holds contact details, or whose payment was suspicious',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated], detail: onChange(JOB_RULE_CHANGES.textAndAddress) },
    entry: 'functions/admin/events/flag-job.ts',
    capabilities: ['table:read', 'table:write'],
  },
  notificationMail: {
    description: 'Queues every new notification for the mailer, which decides whether and when it goes by email',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created] },
    entry: 'functions/notifications/events/notification-mail.ts',
    capabilities: ['queue:mail'],
  },
} as const satisfies Record<string, EventRule>;

/** Stripe's two webhook endpoints (HTTP_ROUTE_GROUPS.stripeWebhook): the account's own events, and its connected accounts'. */
export type StripeWebhookEndpoint = 'account' | 'connect';

/**
 * Each webhook endpoint's path under the API and the field of the Stripe secret holding its
 * signing secret, and the event types it must be subscribed to: those the rules of EVENT_RULES
 * consume from it, derived, so a new rule is subscribed by `npm run stripe:webhooks` (and the
 * simulator delivers only these) with no list typed twice.
 */
export const STRIPE_WEBHOOK_ENDPOINTS: Readonly<Record<StripeWebhookEndpoint, { readonly path: string; readonly secret: 'webhookSecret' | 'connectWebhookSecret'; readonly events: readonly string[] }>> = {
  account: { path: '/webhooks/stripe', secret: 'webhookSecret', events: stripeEventsOf('account') },
  connect: { path: '/webhooks/stripe/connect', secret: 'connectWebhookSecret', events: stripeEventsOf('connect') },
};

function stripeEventsOf(endpoint: StripeWebhookEndpoint): string[] {
  const rules: readonly EventRule[] = Object.values(EVENT_RULES);
  const types = rules
    .filter((rule) => rule.pattern.source.includes(EVENT_SOURCE.stripe) && (rule.stripeEndpoint ?? 'account') === endpoint)
    .flatMap((rule) => rule.pattern['detail-type'] ?? []);
  return [...new Set(types)].sort();
}

/**
 * A consumer of the table's stream, and the Lambda event filter that selects its records (the
 * local stream reader applies the same filter). Its failures are retried in order; records it
 * keeps failing on go to its dead-letter queue.
 */
export interface StreamConsumer extends FunctionDeclaration {
  readonly description: string;
  readonly filter: Readonly<Record<string, unknown>>;
}

export const STREAM_CONSUMERS = {
  /**
   * The transactional outbox's relay: every event is written to the table with its change
   * (functions/lib/outbox.ts) and only this function puts events on the bus.
   */
  outboxRelay: {
    description: 'Puts the events of the outbox on the bus, at least once and in order',
    entry: 'functions/outbox/streams/outbox-relay.ts',
    capabilities: ['events:put'],
    filter: { eventName: ['INSERT'], dynamodb: { NewImage: { pk: { S: [{ prefix: OUTBOX_PREFIX }] } } } },
  },
} as const satisfies Record<string, StreamConsumer>;

export interface QueueConsumer extends FunctionDeclaration {
  readonly description: string;
  /** Messages per invocation; each is acknowledged or retried on its own. */
  readonly batchSize: number;
}

/**
 * SQS queues and the function that consumes each. A message that keeps failing moves to the
 * queue's dead-letter queue. Locally infra/local/sqs.ts delivers to the same handlers.
 */
export const QUEUE_CONSUMERS = {
  /**
   * The job feed's fan-out: a delayed `flush` per job change window (from the job feed rule),
   * which sends one `shard` message per connection shard watching the job to this same
   * queue.
   */
  jobFeedShard: {
    description: 'Pushes a coalesced job change to the subscribed connections, one shard per message',
    entry: 'functions/live/queues/job-feed-shard.ts',
    capabilities: ['table:read', 'table:write', 'sockets:push', 'queue:job-feed'],
    batchSize: 1,
    timeoutSeconds: 60,
  },
  /**
   * One message per notification (queued by EVENT_RULES.notificationMail), or per email or web
   * push held back by quiet hours: sends it once (keyed by notification and channel) if the
   * user wants it by that channel.
   */
  mailer: {
    description: 'Emails a notification to its user through SES, or pushes one held back by quiet hours, once, honouring their preferences and quiet hours',
    entry: 'functions/notifications/queues/mailer.ts',
    capabilities: ['table:read', 'table:write', 'mail:send', 'mail:unsubscribe-key', 'queue:mail', 'push:vapid'],
    /** Links in the email: the subject on the site, and the one-click unsubscribe on the API. */
    settings: ['mailLinkOrigin', 'apiUrl'],
    batchSize: 5,
    timeoutSeconds: 30,
  },
} as const satisfies Record<string, QueueConsumer>;

/** A function subscribed to an SNS topic of the app: it receives the topic's notifications as Lambda's SNS event. */
export interface TopicConsumer extends FunctionDeclaration {
  readonly description: string;
}

/**
 * SNS topics and the function subscribed to each. Locally the emulator that publishes to the
 * topic (infra/local/ses.ts) invokes the same handler with the same SNS event.
 */
export const TOPIC_CONSUMERS = {
  /**
   * The SES configuration set's bounce and complaint events (the mailer sends with it): records
   * a suppression for the address, so the mailer stops emailing it
   * (docs/decisions/0219-email-bounces-and-complaints-stop-email-to-the-address.md).
   */
  sesFeedback: {
    description: 'Stops email to an address that bounced permanently or complained (SES feedback through SNS)',
    entry: 'functions/notifications/topics/ses-feedback.ts',
    capabilities: ['table:write'],
  },
} as const satisfies Record<string, TopicConsumer>;

/**
 * The retry policy of every schedule's target: EventBridge Scheduler's own maxima, stated, so a
 * throttled or briefly failing invocation is tried for a day (a recurring schedule's only until its
 * next run) before it goes to the schedule's dead-letter queue
 * (docs/decisions/0271-every-schedule-target-has-a-dead-letter-queue-and-a-retry.md).
 */
export const SCHEDULE_RETRY_POLICY = { maximumRetryAttempts: 185, maximumEventAgeSeconds: 86_400 } as const;

/**
 * Functions that EventBridge Scheduler invokes (its Lambda target), with the schedule's input as
 * the event. Locally infra/local/scheduler.ts fires the same schedules at their time.
 */
export const SCHEDULE_TARGETS = {
  /**
   * Input {action: 'release' | 'remind', jobId, releaseAt}: acts only while the job still awaits
   * that release; or {action: 'publish-reviews', jobId}: publishes the paid job's hidden reviews.
   */
  autoRelease: {
    description: "Releases a completed job's payment when its delay has passed, or reminds the poster before; publishes a paid job's hidden reviews",
    entry: 'functions/money/schedules/auto-release.ts',
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
} as const satisfies Record<string, FunctionDeclaration & { readonly description: string }>;

/**
 * Functions a recurring EventBridge Scheduler schedule invokes every `rateMinutes` (created by
 * the CDK app; locally infra/local/stack.ts fires them on a timer of the same period).
 */
export interface RecurringSchedule extends FunctionDeclaration {
  readonly description: string;
  readonly rateMinutes: number;
}

export const RECURRING_SCHEDULES = {
  /** Proves that nothing personal of an account deleted 30 days ago remains (functions/people/account-deletion.ts). */
  deletionSweep: {
    description: 'Checks accounts deleted 30 or more days ago for personal data left behind, removes it and records the result',
    entry: 'functions/people/schedules/deletion-sweep.ts',
    // stripe: an open job or draft still found is withdrawn as at the deletion (refunded, its payment cancelled).
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write', 'sockets:push', 'userpool:delete-user', 'stripe'],
    timeoutSeconds: 300,
    rateMinutes: 24 * 60,
  },
  /** Emails each worker whose nearby-jobs digest is due (functions/location/nearby-digest.ts). */
  nearbyDigest: {
    description: "Emails the daily digest of new nearby jobs to each worker whose digest is due, outside their quiet hours, once per day of their zone",
    entry: 'functions/location/schedules/nearby-digest.ts',
    capabilities: ['table:read', 'table:write', 'mail:send', 'mail:unsubscribe-key'],
    settings: ['mailLinkOrigin', 'apiUrl'],
    timeoutSeconds: 300,
    rateMinutes: 60,
  },
  /** Compares the ledger with Stripe since the last checkpoint and publishes the differences (functions/money/reconciliation.ts). */
  reconciliation: {
    description: 'Compares the money ledger with Stripe (charges, refunds, transfers, reversals) since the last checkpoint, stores the checkpoint and publishes the differences as a metric',
    entry: 'functions/money/schedules/reconciliation.ts',
    capabilities: ['table:read', 'table:write', 'stripe'],
    timeoutSeconds: 300,
    rateMinutes: 24 * 60,
  },
  /**
   * Carries out again every money decision pending a few minutes (functions/money/executor.ts)
   * and removes the unpaid drafts a day old, cancelling their PaymentIntents; publishes how many
   * decisions are overdue, which an alarm watches.
   */
  moneyDecisions: {
    description: 'Carries out the money decisions still pending after a few minutes (Stripe was down, a call died) and expires unpaid drafts a day old; publishes the overdue decisions as a metric',
    entry: 'functions/money/schedules/money-decisions.ts',
    capabilities: ['table:read', 'table:write', 'stripe', 'sockets:push', 'images:read'],
    timeoutSeconds: 300,
    rateMinutes: 5,
  },
} as const satisfies Record<string, RecurringSchedule>;

/**
 * The reconciliation's metric, published by its function in CloudWatch's embedded metric
 * format (Powertools Metrics: a log line, no API call, so no capability), per function, which
 * makes each stage's its own; the alarm fires on any difference.
 */
export const RECONCILIATION_METRIC = { namespace: 'OddJobs/Money', name: 'ReconciliationDifferences', service: 'oddjobs', dimension: 'FunctionName' } as const;

/** The money decisions pending past OVERDUE_AFTER_SECONDS after a retry run, published by the retry schedule's function; the alarm fires on any. */
export const OVERDUE_DECISIONS_METRIC = { ...RECONCILIATION_METRIC, name: 'OverdueMoneyDecisions' } as const;

/** Webhook events refused for carrying another Stripe API version than STRIPE_API_VERSION, published by the webhook function; the alarm fires on any. */
export const STRIPE_VERSION_METRIC = { ...RECONCILIATION_METRIC, name: 'StripeEventsOfAnotherVersion' } as const;

/** Cognito user pool triggers. */
export const COGNITO_TRIGGERS = {
  preSignUp: { entry: 'functions/people/auth/pre-sign-up.ts', capabilities: ['table:read', 'table:write'], settings: ['adminSeatByDeploy'] },
  preAuthentication: { entry: 'functions/people/auth/pre-authentication.ts', capabilities: ['table:read', 'table:write'] },
  postAuthentication: { entry: 'functions/people/auth/post-authentication.ts', capabilities: ['table:write'] },
  postConfirmation: {
    entry: 'functions/people/auth/post-confirmation.ts',
    capabilities: ['table:read', 'table:write', 'userpool:admin-group'],
  },
} as const satisfies Record<string, FunctionDeclaration>;

/** Functions the deploy runs as CloudFormation custom resources (AWS only). */
export const DEPLOY_FUNCTIONS = {
  adminSeat: { entry: 'functions/people/deploy/admin-seat.ts', capabilities: ['table:read', 'table:write', 'userpool:create-admin'] },
  /** Moves the pending auto-release schedules an older deployment left in its own group into today's, then deletes that group. */
  releaseScheduleMove: {
    entry: 'functions/money/deploy/release-schedule-move.ts',
    capabilities: ['schedules:auto-release', 'schedules:previous-auto-release'],
    // A deploy waits for it; Lambda's longest, for a group holding many schedules.
    timeoutSeconds: 900,
  },
} as const satisfies Record<string, FunctionDeclaration>;

/** Environment variables the functions read; set by CDK in AWS and by the local stack. */
export const ENV = {
  tableName: 'TABLE_NAME',
  imagesBucket: 'IMAGES_BUCKET',
  eventBusName: 'EVENT_BUS_NAME',
  socketsEndpoint: 'SOCKETS_ENDPOINT',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /** The JWT issuer the WebSocket authorizer trusts ("https://cognito-idp.<region>.amazonaws.com/<pool>"). */
  tokenIssuer: 'TOKEN_ISSUER',
  /** Where uploaded images are served from (CloudFront in AWS, the bucket locally); keys are appended. */
  imagesBaseUrl: 'IMAGES_BASE_URL',
  /** Local stack only: s3rver needs path-style requests. */
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  /** The Amazon Location place index; unset, the offline geocoder answers alone. */
  placeIndexName: 'PLACE_INDEX_NAME',
  /** The Secrets Manager secret holding the Stripe keys (functions/lib/stripe.ts; locally in the local stack's Secrets Manager). */
  stripeSecretArn: 'STRIPE_SECRET_ARN',
  /** Local stack only: the simulator's address (in AWS the SDK talks to Stripe). */
  stripeApiUrl: 'STRIPE_API_URL',
  /**
   * `stripe`, `push:vapid`: seconds the keys read from their secret are used before they are
   * read again, so a rotated key reaches every running function within it (docs/deploy.md).
   */
  secretMaxAgeSeconds: 'SECRET_MAX_AGE_SECONDS',
  /** AWS: 'true' when the deploy owns the admin seat; the pre-sign-up trigger then refuses the admin role. */
  adminSeatByDeploy: 'ADMIN_SEAT_BY_DEPLOY',
  /**
   * AWS: the site's origin (https://<domain>), where Stripe's onboarding returns to. Unset
   * locally, where the page's Origin header is used (the dev server's port varies).
   */
  siteOrigin: 'SITE_ORIGIN',
  /** The queue that `queue:job-feed` sends to. */
  jobFeedQueueUrl: 'JOB_FEED_QUEUE_URL',
  /** Local stack only: the JWKS of cognito-local is served over plain http. Never set in AWS. */
  localJwksUri: 'LOCAL_JWKS_URI',
  /** The delay of auto-release in seconds (AUTO_RELEASE.defaultHours when unset); read where a job is completed. */
  autoReleaseSeconds: 'AUTO_RELEASE_SECONDS',
  /** How long after a release the job's hidden reviews are published (REVIEW_PUBLICATION.defaultDays when unset). */
  reviewPublicationSeconds: 'REVIEW_PUBLICATION_SECONDS',
  /** Seconds the live feed gathers changes of one job into one push (unset: LIVE_COALESCING.defaultSeconds). */
  liveCoalescingSeconds: 'LIVE_COALESCING_SECONDS',
  /** `schedules:auto-release`: the schedule group, the target function's ARN and the role the scheduler invokes it with. */
  autoReleaseScheduleGroup: 'AUTO_RELEASE_SCHEDULE_GROUP',
  autoReleaseTargetArn: 'AUTO_RELEASE_TARGET_ARN',
  autoReleaseSchedulerRoleArn: 'AUTO_RELEASE_SCHEDULER_ROLE_ARN',
  /** `schedules:auto-release`: the queue the schedules' undeliverable invocations go to (their DeadLetterConfig). */
  autoReleaseDeadLetterQueueArn: 'AUTO_RELEASE_DEAD_LETTER_QUEUE_ARN',
  /** `schedules:previous-auto-release`: the auto-release group of a deployment older than 28 Nov 2026, which may still exist. */
  previousAutoReleaseScheduleGroup: 'PREVIOUS_AUTO_RELEASE_SCHEDULE_GROUP',
  /** The queue that `queue:mail` sends to. */
  mailQueueUrl: 'MAIL_QUEUE_URL',
  /** `mail:send`: the sender address (the deploy's `-c sesFromAddress`); empty when the deploy has none, and email is then off. */
  mailFromAddress: 'MAIL_FROM_ADDRESS',
  /** `mail:send`: the SES configuration set the mailer sends with (its bounces and complaints go to TOPIC_CONSUMERS.sesFeedback). */
  mailConfigurationSet: 'MAIL_CONFIGURATION_SET',
  /** AWS: the Secrets Manager secret holding the unsubscribe tokens' signing key. */
  unsubscribeSecretArn: 'UNSUBSCRIBE_SECRET_ARN',
  /** Local stack only: the signing key itself, generated on the first run. */
  unsubscribeKey: 'UNSUBSCRIBE_KEY',
  /** Where links in emails lead: the site's origin (AWS: the same as siteOrigin; locally the web app's, which siteOrigin leaves unset). */
  mailLinkOrigin: 'MAIL_LINK_ORIGIN',
  /** The HTTP API's URL, where an email's one-click unsubscribe posts (AWS: on the site's origin, under API_PATH; locally the gateway's own). */
  apiUrl: 'API_URL',
  /** AWS: the Secrets Manager secret holding the VAPID keys as JSON {publicKey, privateKey, subject}. */
  vapidSecretArn: 'VAPID_SECRET_ARN',
  /** Local stack only: the VAPID keys (the same JSON) generated into .local/ on the first run. */
  vapidKeys: 'VAPID_KEYS',
  /** Local stack only: the local Web Push receiver's origin, the one plain-http push endpoint accepted. */
  localPushReceiverOrigin: 'LOCAL_PUSH_RECEIVER_ORIGIN',
  /** Each client's budget per minute of signed-in writes and of socket connects (shared/limits.ts CLIENT_BUDGET; tests lower it). */
  clientBudgetPerMinute: 'CLIENT_BUDGET_PER_MINUTE',
} as const;

/**
 * How long a function uses the keys it read from a secret (`stripe`, `push:vapid`) before it
 * reads them again: a key rotated in the secret reaches every running function within this
 * (docs/deploy.md, "Rotating Stripe's keys"). The deploy gives it as SECRET_MAX_AGE_SECONDS;
 * tests shorten it.
 */
export const DEFAULT_SECRET_MAX_AGE_SECONDS = 300;

/** A name in ENV. */
export type EnvKey = keyof typeof ENV;

/** The variables only the local stack sets, in place of AWS's own (each stands in for a declared one). */
export const LOCAL_ONLY_VARIABLES = ['s3ForcePathStyle', 'stripeApiUrl', 'localJwksUri', 'unsubscribeKey', 'vapidKeys', 'localPushReceiverOrigin'] as const satisfies readonly EnvKey[];

/** The settings a declaration may name (FunctionDeclaration.settings). */
export type Setting = Extract<EnvKey, 'siteOrigin' | 'userPoolId' | 'userPoolClientId' | 'tokenIssuer' | 'adminSeatByDeploy' | 'autoReleaseSeconds' | 'reviewPublicationSeconds' | 'liveCoalescingSeconds' | 'mailLinkOrigin' | 'apiUrl' | 'clientBudgetPerMinute'>;

/**
 * What each capability grants, declared once: the IAM actions of its least-privilege grant
 * (infra/constructs/app-function.ts grants them; the local stack's policy proxy,
 * infra/local/iam-proxy.ts, allows exactly these) and the variables, by their ENV keys, that
 * tell the function where the resource is (both the CDK app and the local stack set exactly
 * these). A function reads no variable and calls no action its capabilities do not name.
 */
export const CAPABILITY_GRANTS = {
  /** Item reads and queries. No Scan: the design rules out scans on every request path. */
  'table:read': { actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'], environment: ['tableName'] },
  'table:write': { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'], environment: ['tableName'] },
  // ListBucket: without it S3 answers HeadObject of a missing key with 403 instead of 404.
  'images:read': { actions: ['s3:GetObject', 's3:ListBucket'], environment: ['imagesBucket', 'imagesBaseUrl'] },
  'images:write': { actions: ['s3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'], environment: ['imagesBucket', 'imagesBaseUrl'] },
  'events:put': { actions: ['events:PutEvents'], environment: ['eventBusName'] },
  'sockets:push': { actions: ['execute-api:ManageConnections'], environment: ['socketsEndpoint'] },
  'userpool:admin-group': { actions: ['cognito-idp:AdminAddUserToGroup'], environment: [] },
  'userpool:create-admin': {
    actions: ['cognito-idp:AdminCreateUser', 'cognito-idp:AdminGetUser', 'cognito-idp:AdminAddUserToGroup'],
    environment: ['userPoolId'],
  },
  // The client id: the password check signs in through the web client (its ADMIN_USER_PASSWORD_AUTH flow).
  'userpool:delete-user': { actions: ['cognito-idp:AdminInitiateAuth', 'cognito-idp:AdminDeleteUser'], environment: ['userPoolId', 'userPoolClientId'] },

  'userpool:manage-users': {
    actions: ['cognito-idp:AdminDisableUser', 'cognito-idp:AdminEnableUser', 'cognito-idp:AdminUserGlobalSignOut', 'cognito-idp:AdminResetUserPassword'],
    environment: ['userPoolId'],
  },
  geocoding: { actions: ['geo:SearchPlaceIndexForPosition', 'geo:SearchPlaceIndexForText'], environment: ['placeIndexName'] },
  stripe: { actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], environment: ['stripeSecretArn', 'secretMaxAgeSeconds'] },
  'queue:job-feed': { actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], environment: ['jobFeedQueueUrl'] },
  // PassRole of the scheduler's role only: the schedule invokes the target as that role.
  'schedules:auto-release': {
    actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole'],
    environment: ['autoReleaseScheduleGroup', 'autoReleaseTargetArn', 'autoReleaseSchedulerRoleArn', 'autoReleaseDeadLetterQueueArn'],
  },
  'schedules:previous-auto-release': {
    actions: ['scheduler:GetScheduleGroup', 'scheduler:ListSchedules', 'scheduler:GetSchedule', 'scheduler:DeleteScheduleGroup'],
    environment: ['previousAutoReleaseScheduleGroup'],
  },
  'queue:mail': { actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], environment: ['mailQueueUrl'] },
  // On the sender's identities only, and only from the sender's address (the CDK app's grant).
  'mail:send': { actions: ['ses:SendEmail'], environment: ['mailFromAddress', 'mailConfigurationSet'] },
  'mail:unsubscribe-key': { actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], environment: ['unsubscribeSecretArn'] },
  'push:vapid': { actions: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], environment: ['vapidSecretArn', 'secretMaxAgeSeconds'] },
} as const satisfies Record<Capability, { readonly actions: readonly string[]; readonly environment: readonly EnvKey[] }>;

/** Every HTTP route group spends its signed-in callers' budget (functions/lib/client-budget.ts). */
const HTTP_ROUTE_GROUP_SETTINGS: readonly Setting[] = ['clientBudgetPerMinute'];

/** The settings a declared function reads: its own, and those every HTTP route group reads. */
export function declaredSettings(declaration: FunctionDeclaration): Setting[] {
  return [...new Set([...(declaration.settings ?? []), ...('routes' in declaration ? HTTP_ROUTE_GROUP_SETTINGS : [])])];
}

/** The variables a declared function is given, by ENV key: its capabilities' and its settings. */
export function declaredEnvironment(declaration: FunctionDeclaration): EnvKey[] {
  const keys: EnvKey[] = [...declaration.capabilities.flatMap((capability) => CAPABILITY_GRANTS[capability].environment), ...declaredSettings(declaration)];
  return [...new Set(keys)];
}
