import {
  EVENT_SOURCE,
  type EventRule,
  type FunctionDeclaration,
  type HttpRouteGroup,
  type QueueConsumer,
  type RecurringSchedule,
  type StreamConsumer,
  type StripeWebhookEndpoint,
  type TopicConsumer,
} from './declarations.js';
import * as admin from './admin/routes.js';
import * as applications from './applications/routes.js';
import * as chat from './chat/routes.js';
import * as dashboards from './dashboards/routes.js';
import * as disputes from './disputes/routes.js';
import * as jobs from './jobs/routes.js';
import * as live from './live/routes.js';
import * as location from './location/routes.js';
import * as money from './money/routes.js';
import * as notifications from './notifications/routes.js';
import * as outbox from './outbox/routes.js';
import * as people from './people/routes.js';
import * as reviews from './reviews/routes.js';
import * as search from './search/routes.js';

/**
 * Every entry point of the backend, declared once. The CDK API stack creates one Lambda per
 * group and wires its routes, rules and triggers from here; the local stack's gateways read the
 * same declarations and invoke the same handler modules. Nothing else lists routes.
 *
 * The index of the backend by feature (issue 48): each feature declares its own functions in
 * functions/<feature>/routes.ts, with what functions/declarations.ts defines (and this file
 * re-exports); the lists here gather them, key by key, and what is derived from the lists
 * stays here. A function added to a feature is added to its list here too
 * (test/unit/routes-index.test.ts fails until it is).
 */

export {
  AUTO_RELEASE,
  CAPABILITY_GRANTS,
  declaredEnvironment,
  declaredSettings,
  DEFAULT_SECRET_MAX_AGE_SECONDS,
  ENV,
  EVENT_SOURCE,
  JOB_EVENT,
  JOB_RULE_CHANGES,
  LIVE_COALESCING,
  LOCAL_ONLY_VARIABLES,
  NOTIFICATION_EVENT,
  OVERDUE_DECISIONS_METRIC,
  RECONCILIATION_METRIC,
  REVIEW_EVENT,
  REVIEW_PUBLICATION,
  SCHEDULE_RETRY_POLICY,
  STRIPE_FUNCTION_TIMEOUT_SECONDS,
  STRIPE_VERSION_METRIC,
  type Access,
  type Capability,
  type EnvKey,
  type EventPattern,
  type EventRule,
  type FunctionDeclaration,
  type HttpRouteGroup,
  type JobChange,
  type JobEventDetail,
  type QueueConsumer,
  type RecurringSchedule,
  type Setting,
  type StreamConsumer,
  type StripeWebhookEndpoint,
  type TopicConsumer,
} from './declarations.js';

/**
 * Signed-in routes whose operation reads the caller's suspension with its own reads (in the
 * same BatchGetItem) and refuses a suspended caller before it writes, rather than the route
 * group asking before the operation starts: one round trip less on the busiest write path.
 */
export const OPERATIONS_CHECKING_SUSPENSION: ReadonlySet<string> = new Set<HttpRouteKey>(['POST /conversations/{id}/messages']);

export const HTTP_ROUTE_GROUPS = {
  accounts: people.HTTP_ROUTE_GROUPS.accounts,
  profiles: people.HTTP_ROUTE_GROUPS.profiles,
  accountDeletion: people.HTTP_ROUTE_GROUPS.accountDeletion,
  uploads: jobs.HTTP_ROUTE_GROUPS.uploads,
  jobs: jobs.HTTP_ROUTE_GROUPS.jobs,
  search: search.HTTP_ROUTE_GROUPS.search,
  savedSearches: search.HTTP_ROUTE_GROUPS.savedSearches,
  payments: money.HTTP_ROUTE_GROUPS.payments,
  stripeWebhook: money.HTTP_ROUTE_GROUPS.stripeWebhook,
  savedJobs: jobs.HTTP_ROUTE_GROUPS.savedJobs,
  notifications: notifications.HTTP_ROUTE_GROUPS.notifications,
  applications: applications.HTTP_ROUTE_GROUPS.applications,
  reviews: reviews.HTTP_ROUTE_GROUPS.reviews,
  location: location.HTTP_ROUTE_GROUPS.location,
  disputes: disputes.HTTP_ROUTE_GROUPS.disputes,
  dashboards: dashboards.HTTP_ROUTE_GROUPS.dashboards,
  admin: admin.HTTP_ROUTE_GROUPS.admin,
  users: admin.HTTP_ROUTE_GROUPS.users,
  conversations: chat.HTTP_ROUTE_GROUPS.conversations,
  unsubscribe: notifications.HTTP_ROUTE_GROUPS.unsubscribe,
  pushSubscriptions: notifications.HTTP_ROUTE_GROUPS.pushSubscriptions,
  identity: people.HTTP_ROUTE_GROUPS.identity,
} as const satisfies Record<string, HttpRouteGroup>;

export type HttpRouteGroupName = keyof typeof HTTP_ROUTE_GROUPS;
/** The route keys of one group, e.g. RouteKeyOf<'jobs'> = 'GET /jobs' | ... */
export type RouteKeyOf<G extends HttpRouteGroupName> = keyof (typeof HTTP_ROUTE_GROUPS)[G]['routes'] & string;
/** Every route key of the HTTP API. */
export type HttpRouteKey = { [G in HttpRouteGroupName]: RouteKeyOf<G> }[HttpRouteGroupName];

/** Declared whole in functions/live/routes.ts. */
export const WEBSOCKET_API = live.WEBSOCKET_API;

export const EVENT_RULES = {
  jobFeed: live.EVENT_RULES.jobFeed,
  notificationPush: notifications.EVENT_RULES.notificationPush,
  geocoding: jobs.EVENT_RULES.geocoding,
  paymentSucceeded: money.EVENT_RULES.paymentSucceeded,
  accountUpdated: money.EVENT_RULES.accountUpdated,
  refundCreated: money.EVENT_RULES.refundCreated,
  transferCreated: money.EVENT_RULES.transferCreated,
  chargebacks: money.EVENT_RULES.chargebacks,
  payoutSettled: money.EVENT_RULES.payoutSettled,
  searchIndex: search.EVENT_RULES.searchIndex,
  savedSearchAlerts: search.EVENT_RULES.savedSearchAlerts,
  nearbyJobAlerts: location.EVENT_RULES.nearbyJobAlerts,
  reviewPush: reviews.EVENT_RULES.reviewPush,
  marketStats: admin.EVENT_RULES.marketStats,
  autoReleaseSchedules: money.EVENT_RULES.autoReleaseSchedules,
  notificationWebPush: notifications.EVENT_RULES.notificationWebPush,
  jobFlags: admin.EVENT_RULES.jobFlags,
  notificationMail: notifications.EVENT_RULES.notificationMail,
  identityChecks: people.EVENT_RULES.identityChecks,
} as const satisfies Record<string, EventRule>;

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

export const STREAM_CONSUMERS = {
  outboxRelay: outbox.STREAM_CONSUMERS.outboxRelay,
} as const satisfies Record<string, StreamConsumer>;

/**
 * SQS queues and the function that consumes each. A message that keeps failing moves to the
 * queue's dead-letter queue. Locally infra/local/sqs.ts delivers to the same handlers.
 */
export const QUEUE_CONSUMERS = {
  jobFeedShard: live.QUEUE_CONSUMERS.jobFeedShard,
  mailer: notifications.QUEUE_CONSUMERS.mailer,
} as const satisfies Record<string, QueueConsumer>;

/**
 * SNS topics and the function subscribed to each. Locally the emulator that publishes to the
 * topic (infra/local/ses.ts) invokes the same handler with the same SNS event.
 */
export const TOPIC_CONSUMERS = {
  sesFeedback: notifications.TOPIC_CONSUMERS.sesFeedback,
} as const satisfies Record<string, TopicConsumer>;

/**
 * Functions that EventBridge Scheduler invokes (its Lambda target), with the schedule's input as
 * the event. Locally infra/local/scheduler.ts fires the same schedules at their time.
 */
export const SCHEDULE_TARGETS = {
  autoRelease: money.SCHEDULE_TARGETS.autoRelease,
} as const satisfies Record<string, FunctionDeclaration & { readonly description: string }>;

export const RECURRING_SCHEDULES = {
  deletionSweep: people.RECURRING_SCHEDULES.deletionSweep,
  nearbyDigest: location.RECURRING_SCHEDULES.nearbyDigest,
  reconciliation: money.RECURRING_SCHEDULES.reconciliation,
  moneyDecisions: money.RECURRING_SCHEDULES.moneyDecisions,
} as const satisfies Record<string, RecurringSchedule>;

/** Cognito user pool triggers. */
export const COGNITO_TRIGGERS = {
  preSignUp: people.COGNITO_TRIGGERS.preSignUp,
  preAuthentication: people.COGNITO_TRIGGERS.preAuthentication,
  postAuthentication: people.COGNITO_TRIGGERS.postAuthentication,
  postConfirmation: people.COGNITO_TRIGGERS.postConfirmation,
} as const satisfies Record<string, FunctionDeclaration>;

/** Functions the deploy runs as CloudFormation custom resources (AWS only). */
export const DEPLOY_FUNCTIONS = {
  adminSeat: people.DEPLOY_FUNCTIONS.adminSeat,
  releaseScheduleMove: money.DEPLOY_FUNCTIONS.releaseScheduleMove,
} as const satisfies Record<string, FunctionDeclaration>;
