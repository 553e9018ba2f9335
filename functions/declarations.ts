import type { JobSummary } from '../shared/api.js';

/**
 * What the backend's declarations are written in (issue 48): the shapes of a declared function
 * and of each kind of trigger, the capabilities and what each grants, the environment, the
 * event vocabulary and the settings' defaults. Each feature declares its own functions with
 * these in functions/<feature>/routes.ts; functions/routes.ts gathers them and re-exports all of
 * this, so a reader imports from there.
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
  /** A public question was asked, answered or removed (issue 45): the job's page shows them. */
  | 'questions'
  /** A price change was asked, withdrawn or answered (issue 45); approved, the job has its new price. */
  | 'priceChange'
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
   * status changes (a price changes only once assigned), and its card does not show the applicant count.
   */
  sameSearchEntry: ['applications', 'questions', 'priceChange', 'completed', 'declined', 'disputed', 'autoReleasePaused', 'autoReleaseScheduled', 'releaseBlocked', 'paid', 'refundedInPart', 'chargeback'],
  /** These leave a job's status, category, price, market and day as they were: its market figures stay. */
  sameMarketFigures: ['applications', 'questions', 'autoReleasePaused', 'autoReleaseScheduled', 'releaseBlocked', 'hidden', 'shown', 'refundedInPart', 'chargeback'],
} as const satisfies Record<string, readonly JobChange[]>;

/**
 * A job rule's `detail` pattern on the event's change. An event written before every job event
 * named its change (posting named none) may still arrive after a deploy, from the relay's
 * retries or a redrive: it matches too, as it did before the rules filtered.
 */
export const onChange = (changes: readonly unknown[]) => ({ $or: [{ change: changes }, { change: [{ exists: false }] }] });

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
export const STRIPE_RULE_CAPABILITIES = ['table:read', 'table:write', 'images:read', 'stripe', 'sockets:push'] as const;

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

/** Stripe's two webhook endpoints (HTTP_ROUTE_GROUPS.stripeWebhook): the account's own events, and its connected accounts'. */
export type StripeWebhookEndpoint = 'account' | 'connect';

/**
 * A consumer of the table's stream, and the Lambda event filter that selects its records (the
 * local stream reader applies the same filter). Its failures are retried in order; records it
 * keeps failing on go to its dead-letter queue.
 */
export interface StreamConsumer extends FunctionDeclaration {
  readonly description: string;
  readonly filter: Readonly<Record<string, unknown>>;
}

export interface QueueConsumer extends FunctionDeclaration {
  readonly description: string;
  /** Messages per invocation; each is acknowledged or retried on its own. */
  readonly batchSize: number;
}

/** A function subscribed to an SNS topic of the app: it receives the topic's notifications as Lambda's SNS event. */
export interface TopicConsumer extends FunctionDeclaration {
  readonly description: string;
}

/**
 * The retry policy of every schedule's target: EventBridge Scheduler's own maxima, stated, so a
 * throttled or briefly failing invocation is tried for a day (a recurring schedule's only until its
 * next run) before it goes to the schedule's dead-letter queue
 * (docs/decisions/0271-every-schedule-target-has-a-dead-letter-queue-and-a-retry.md).
 */
export const SCHEDULE_RETRY_POLICY = { maximumRetryAttempts: 185, maximumEventAgeSeconds: 86_400 } as const;

/**
 * Functions a recurring EventBridge Scheduler schedule invokes every `rateMinutes` (created by
 * the CDK app; locally infra/local/stack.ts fires them on a timer of the same period).
 */
export interface RecurringSchedule extends FunctionDeclaration {
  readonly description: string;
  readonly rateMinutes: number;
}

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