import {
  AUTO_RELEASE,
  EVENT_SOURCE,
  JOB_EVENT,
  STRIPE_FUNCTION_TIMEOUT_SECONDS,
  STRIPE_RULE_CAPABILITIES,
  type EventRule,
  type FunctionDeclaration,
  type HttpRouteGroup,
  type RecurringSchedule,
} from '../declarations.js';

/**
 * The money feature's functions: its part of HTTP_ROUTE_GROUPS, EVENT_RULES, SCHEDULE_TARGETS,
 * RECURRING_SCHEDULES and DEPLOY_FUNCTIONS, which functions/routes.ts gathers from every feature
 * (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
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
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  paymentSucceeded: {
    description: "Opens a paid job, settles a tip, or finishes a higher price's approval after its card step, when Stripe reports its payment succeeded (once, with the client confirmation)",
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
    // images:read: the job's event carries its image URLs. Stripe: a chargeback lost on a job of
    // several charges refunds what the others hold (docs/decisions/0324).
    capabilities: STRIPE_RULE_CAPABILITIES,
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
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
} as const satisfies Record<string, EventRule>;

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

export const RECURRING_SCHEDULES = {
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

export const DEPLOY_FUNCTIONS = {
  /** Moves the pending auto-release schedules an older deployment left in its own group into today's, then deletes that group. */
  releaseScheduleMove: {
    entry: 'functions/money/deploy/release-schedule-move.ts',
    capabilities: ['schedules:auto-release', 'schedules:previous-auto-release'],
    // A deploy waits for it; Lambda's longest, for a group holding many schedules.
    timeoutSeconds: 900,
  },
} as const satisfies Record<string, FunctionDeclaration>;
