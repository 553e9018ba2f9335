/**
 * The one DynamoDB table: its shape and every key of every item, declared once.
 * The CDK data stack and the local stack create the table from `TABLE_DESIGN`; handlers build
 * keys only through `keys`. docs/data-model.md explains each access pattern and which key
 * or index serves it.
 */

import { createHash } from 'node:crypto';

export const TABLE_DESIGN = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (readers filter on it too). */
  timeToLiveAttribute: 'expiresAt',
  /** The table's stream carries new images: the outbox relay reads the events it holds. */
  streamViewType: 'NEW_IMAGE',
  /** Overloaded global secondary indexes, all projecting every attribute. */
  indexes: {
    GSI1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    GSI2: { partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    GSI3: { partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  },
} as const;

/** The partition-key prefix of outbox items: the stream's filter selects them by it. */
export const OUTBOX_PREFIX = 'OUTBOX#';

export type IndexName = keyof typeof TABLE_DESIGN.indexes;

/**
 * How many partitions each live topic's subscriptions are spread over. A connection's shard is
 * a hash of its id (functions/lib/sockets.ts), the same for every topic and for its whole life,
 * so one consumer per shard reads every topic of a job change for its connections and pushes
 * each connection once. Each shard costs a job change one query per topic it touches that is
 * watched there (keys.watchedShard), so it is sized for the subscribe rate of the busiest topic
 * (about 1,000 writes a second per partition: 4 take 4,000 subscribes a second to the feed;
 * docs/scale.md), not for the socket count. Raise it only (a smaller number would hide
 * connections' partitions).
 */
export const CONNECTION_SHARDS = 4;

/**
 * How many partitions each platform-wide list is written over (write sharding, issue 24): the
 * jobs in a status (the open-jobs feed above all), payments, the admin actions log, and the
 * market and category counters. Each partition takes about 1,000 writes a second, so 4 take
 * 4,000 to one list; each page of a list costs one Query per shard, in parallel
 * (functions/lib/sharded-lists.ts). Changing it moves items between shards: every item of these
 * lists must then be rewritten (`npm run backfill:list-shards`, docs/deploy.md), and cursors
 * handed out before stop being valid (400). A page cursor holds a key per shard, about 240
 * characters each: beyond 8 shards the open-jobs cursor outgrows its 2,000 (shared/schemas/job.ts).
 */
export const LIST_SHARDS = 4;

/** A stable shard of an id among `count`: the first 32 bits of its SHA-256, so no lookup is needed and it never moves. */
export const shardOf = (id: string, count: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % count;

/** A platform-wide list written over `LIST_SHARDS` partitions, `<name>#<shard>`. */
export interface ShardedList {
  /** The partition of the item with this id (its key's stable shard): updates and deletes find it. */
  partitionOf(id: string): string;
  /** Every shard's partition, in shard order: a reader queries each, in parallel. */
  partitions: readonly string[];
}

const shardedList = (name: string): ShardedList => ({
  partitionOf: (id) => `${name}#${shardOf(id, LIST_SHARDS)}`,
  partitions: Array.from({ length: LIST_SHARDS }, (_, shard) => `${name}#${shard}`),
});

export interface ItemKey {
  pk: string;
  sk: string;
}

/**
 * Sort keys that order by time start with an ISO-8601 UTC timestamp (lexicographic order is
 * chronological) followed by the entity id so two items created in the same millisecond
 * never collide.
 */
export const timeOrdered = (createdAt: string, id: string): string => `${createdAt}#${id}`;

/** The timestamp and id a `timeOrdered` sort key was made of (the timestamp holds no '#'). */
export function timeOrderedParts(sortKey: string): { createdAt: string; id: string } {
  const separator = sortKey.indexOf('#');
  return { createdAt: sortKey.slice(0, separator), id: sortKey.slice(separator + 1) };
}

export const keys = {
  /** A user's profile. */
  profile: (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  /**
   * GSI2 and GSI3 on profiles: every user by lower-cased name and by lower-cased email (the
   * admin's user search: a prefix is a `begins_with` on the sort key); the id keeps keys unique.
   */
  usersByName: () => 'USERNAMES',
  usersByEmail: () => 'USEREMAILS',
  userSearchKey: (text: string, userId: string) => `${text.trim().toLowerCase()}#${userId}`,

  /** The single admin seat: whoever holds it is (or is becoming) the one admin. */
  adminSeat: (): ItemKey => ({ pk: 'SINGLETON#ADMIN', sk: 'SEAT' }),

  /** A job; its applications and flags live in the same partition. */
  job: (jobId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: 'JOB' }),
  jobPartition: (jobId: string): string => `JOB#${jobId}`,

  /**
   * An open job's search document (issue 46), what the search engine indexes of it; a removed
   * job's stays a while as a tombstone. Written over `LIST_SHARDS` partitions (a new search
   * function reads them all). GSI1: the documents changed in one UTC hour (`YYYY-MM-DDTHH`), in
   * order of change: what a running search function reads to stay current.
   */
  searchDocument: (jobId: string): ItemKey => ({ pk: shardedList('SEARCHDOCS').partitionOf(jobId), sk: `JOB#${jobId}` }),
  searchDocuments: () => shardedList('SEARCHDOCS'),
  searchChanges: (hour: string) => `SEARCHCHANGES#${hour}`,

  /**
   * A worker's application, in the job's partition: the key itself allows one per worker per
   * job. GSI1: the worker's applications, newest first.
   */
  application: (jobId: string, workerId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `APP#${workerId}` }),
  applicationPrefix: () => 'APP#',
  applicationsOfWorker: (workerId: string) => `WORKERAPPS#${workerId}`,
  /** GSI1 on public questions: the ones a worker asked, newest first (their data export, their account's deletion). */
  questionsOf: (workerId: string) => `QUESTIONSBY#${workerId}`,

  /** GSI1 on job items: jobs in one status, newest first (the open-jobs feed, admin lists), sharded by job id. */
  jobsByStatus: (status: string) => shardedList(`JOBS#${status}`),
  /** GSI2 on job items: a poster's jobs, sorted by status then time. */
  jobsByPoster: (posterId: string) => `POSTER#${posterId}`,
  /** GSI3 on job items with a worker: the worker's jobs, sorted by status then time. */
  jobsByWorker: (workerId: string) => `WORKER#${workerId}`,
  statusOrdered: (status: string, createdAt: string, id: string) => `${status}#${createdAt}#${id}`,

  /** A job a worker saved. GSI1: the worker's saved jobs, newest first; GSI3: by job (cascade). */
  savedJob: (workerId: string, jobId: string): ItemKey => ({ pk: `USER#${workerId}`, sk: `SAVED#${jobId}` }),
  savedJobsOf: (workerId: string) => `SAVED#${workerId}`,

  /** A notification, in the user's partition newest last (query descending). GSI3: by job. */
  notification: (userId: string, createdAt: string, id: string): ItemKey => ({ pk: `USER#${userId}`, sk: `NOTIF#${createdAt}#${id}` }),
  userPartition: (userId: string) => `USER#${userId}`,
  notificationPrefix: () => 'NOTIF#',

  /**
   * A review, in the reviewee's partition: the key itself allows one per reviewer per job per
   * reviewee. GSI1: the reviews about a user, newest first.
   */
  review: (revieweeId: string, jobId: string, reviewerId: string): ItemKey => ({ pk: `USER#${revieweeId}`, sk: `REVIEW#${jobId}#${reviewerId}` }),
  reviewsAbout: (revieweeId: string) => `REVIEWS#${revieweeId}`,

  /**
   * GSI3 key of items that belong to a job but live outside its partition (saved entries,
   * notifications, conversations): the job's delete cascade finds them here.
   */
  jobReferences: (jobId: string) => `JOBREF#${jobId}`,

  /** A payment of a job (by its PaymentIntent). GSI1: all payments newest first, sharded by intent id; GSI2: a poster's. */
  payment: (paymentIntentId: string): ItemKey => ({ pk: `PAYMENT#${paymentIntentId}`, sk: 'PAYMENT' }),
  paymentsLog: () => shardedList('PAYMENTS'),
  paymentsOfPoster: (posterId: string) => `POSTERPAYMENTS#${posterId}`,
  /** The tip of a job: the key allows one; claimed before Stripe is called, settled with the payment row. */
  tip: (jobId: string): ItemKey => ({ pk: `TIP#${jobId}`, sk: 'TIP' }),

  /**
   * A worker's Instant Payout, in the worker's partition, by the client's request key: the key
   * itself makes a retried request one payout (functions/money/instant-payouts.ts).
   */
  instantPayout: (workerId: string, requestKey: string): ItemKey => ({ pk: `USER#${workerId}`, sk: `PAYOUT#${requestKey}` }),
  instantPayoutPrefix: () => 'PAYOUT#',

  /** Which user a Stripe connected account belongs to (for account.updated webhooks). */
  stripeAccount: (accountId: string): ItemKey => ({ pk: `STRIPEACCOUNT#${accountId}`, sk: 'USER' }),

  /** One entry of the admin actions log (admin actions and security events). GSI1: newest first, sharded by entry id. */
  adminAction: (id: string): ItemKey => ({ pk: `ADMINACTION#${id}`, sk: 'ADMINACTION' }),
  adminActionsLog: () => shardedList('ADMINACTIONS'),

  /** GSI2 on admin actions: one action type's entries, newest first (the audit log's filter). */
  adminActionsOfType: (actionType: string) => `ADMINACTIONS#${actionType}`,
  /** GSI3 on admin actions: the entries about one target (a user's audit trail), newest first. */
  adminActionsAbout: (targetId: string) => `ADMINTARGET#${targetId}`,

  /**
   * A public question on a job and its answer (issue 45), in the job's partition: the job page
   * reads them all with one Query (at most QUESTION_LIMITS.perJob), and they go with the job.
   */
  jobQuestion: (jobId: string, questionId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `QUESTION#${questionId}` }),
  jobQuestionPrefix: () => 'QUESTION#',

  /**
   * A price change after assignment and where it ended (issue 45), in the job's partition, by
   * when it was asked: the job's page and the admin read the history with one Query, and it goes
   * with the job. The one waiting for the poster is named on the job (`priceChange`).
   */
  priceChange: (jobId: string, requestedAt: string, id: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `PRICECHANGE#${requestedAt}#${id}` }),
  priceChangePrefix: () => 'PRICECHANGE#',

  /**
   * A report on a job, in the job's partition: the key allows one per reporter per job
   * (`system#<rule>` for the platform's own flags). GSI1: the flags in one status, newest first.
   */
  jobFlag: (jobId: string, reporterId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `FLAG#${reporterId}` }),
  /** A report on one public question of the job: one per reporter per question. */
  questionFlag: (jobId: string, questionId: string, reporterId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `FLAG#question#${questionId}#${reporterId}` }),
  jobFlagPrefix: () => 'FLAG#',
  flagsByStatus: (status: string) => `FLAGS#${status}`,

  /** A market's running totals (analytics). GSI1: every market, sharded by lower-cased market. */
  marketTotals: (market: string): ItemKey => ({ pk: `MARKET#${market.toLowerCase()}`, sk: 'TOTALS' }),
  allMarkets: () => shardedList('MARKETS'),
  /** Jobs a market got on one UTC day. GSI1 "MARKETDAYS" sorted by day, sharded by lower-cased market: the last 30 days of every market. */
  marketDay: (market: string, day: string): ItemKey => ({ pk: `MARKET#${market.toLowerCase()}`, sk: `DAY#${day}` }),
  marketDays: () => shardedList('MARKETDAYS'),
  /**
   * The ledger's totals of one UTC day or month (the admin's money overview), ADDed to in every
   * transaction that writes ledger movements (transactLedger); one partition per kind, the period sorts.
   */
  moneyTotals: (kind: string, period: string): ItemKey => ({ pk: `MONEY#${kind}`, sk: period }),
  /** A category's running totals (counted with the markets, issue 27). GSI1 "CATEGORIES" by name, sharded by name: every category. */
  categoryTotals: (category: string): ItemKey => ({ pk: `CATEGORY#${category}`, sk: 'TOTALS' }),
  allCategories: () => shardedList('CATEGORIES'),
  /** The categories the admin hid from posting: one item, a string set of names. */
  hiddenCategories: (): ItemKey => ({ pk: 'CATEGORIES', sk: 'HIDDEN' }),
  /** What the analytics rule has counted of one job (outside the job's partition: it outlives a delete). */
  marketJobState: (jobId: string): ItemKey => ({ pk: `MARKETJOB#${jobId}`, sk: 'COUNTED' }),

  /**
   * A conversation of one job and one worker: the key itself allows one per pair. Its messages
   * and the record of each client-chosen message id live in the same partition. GSI1: the
   * poster's conversations, GSI2: the worker's, both by last update; GSI3: by job (cascade).
   */
  conversation: (jobId: string, workerId: string): ItemKey => ({ pk: `CONV#${jobId}#${workerId}`, sk: 'CONV' }),
  conversationsOf: (userId: string) => `CONVS#${userId}`,
  /** A message; the sort key orders a conversation (the send transaction keeps it increasing). */
  message: (jobId: string, workerId: string, position: string): ItemKey => ({ pk: `CONV#${jobId}#${workerId}`, sk: `MSG#${position}` }),
  messagePrefix: () => 'MSG#',
  /** That a sender used a client-chosen message id (a resend of it is a no-op). */
  clientMessage: (jobId: string, workerId: string, senderId: string, messageId: string): ItemKey => ({
    pk: `CONV#${jobId}#${workerId}`,
    sk: `CLIENTMSG#${senderId}#${messageId}`,
  }),
  /** A user's unread messages over all conversations (the header badge). */
  unreadMessages: (userId: string): ItemKey => ({ pk: `USER#${userId}`, sk: 'UNREAD#MESSAGES' }),

  /**
   * A live WebSocket connection (TTL'd), with its shard and the live topics it subscribed to.
   * GSI1: a signed-in user's connections. Visitors' connections are in no index: nothing reads
   * them by user, so a visitor's connect or disconnect writes no shared partition.
   */
  connection: (connectionId: string): ItemKey => ({ pk: `CONN#${connectionId}`, sk: 'CONN' }),
  connectionsByUser: (userId: string) => `CONNS#${userId}`,

  /** A connection's subscription to a live topic, in the topic's partition of its shard (TTL'd with the connection). */
  subscription: (topic: string, shard: number, connectionId: string): ItemKey => ({ pk: `SUB#${topic}#${shard}`, sk: connectionId }),
  subscribers: (topic: string, shard: number) => `SUB#${topic}#${shard}`,
  /**
   * The mark that a shard of a topic may have subscribers, until `expiresAt` (TTL'd): a
   * subscribe sets it past its connection's end, nothing clears it sooner. A job change's flush
   * reads the marks of its topics in one BatchGetItem and queries only the marked shards, so a
   * change nobody watches costs no Query and no push invocation.
   */
  watchedShard: (topic: string, shard: number): ItemKey => ({ pk: `WATCHED#${topic}#${shard}`, sk: 'WATCHED' }),

  /**
   * A job's change waiting out the coalescing window (functions/live/live-feed.ts): the newest
   * state only, pushed once when the window ends.
   */
  pendingJobPush: (jobId: string): ItemKey => ({ pk: `LIVEPENDING#${jobId}`, sk: 'PUSH' }),

  /** A job change as pushed to one live topic (TTL'd): what a reconnecting socket catches up from, by cursor. */
  topicChange: (topic: string, cursor: string): ItemKey => ({ pk: `LIVELOG#${topic}`, sk: cursor }),
  topicChanges: (topic: string) => `LIVELOG#${topic}`,

  /**
   * A dispute. GSI1: the disputes a user filed, GSI2: those about a user (both newest first);
   * GSI3: the admin's list per status, by priority weight then newest (the sort key moves
   * with the priority).
   */
  dispute: (disputeId: string): ItemKey => ({ pk: `DISPUTE#${disputeId}`, sk: 'DISPUTE' }),
  disputePartition: (disputeId: string) => `DISPUTE#${disputeId}`,
  disputesOfUser: (userId: string) => `DISPUTES#${userId}`,
  disputesByStatus: (status: string) => `DISPUTESTATUS#${status}`,
  priorityOrdered: (weight: number, createdAt: string, id: string) => `${weight}#${createdAt}#${id}`,
  /** In the job's partition: the key itself allows one dispute per filer per job. */
  disputeMarker: (jobId: string, reporterId: string): ItemKey => ({ pk: `JOB#${jobId}`, sk: `DISPUTE#${reporterId}` }),
  /** A message of a dispute's thread, in the dispute's partition, oldest first. */
  disputeMessage: (disputeId: string, createdAt: string, id: string): ItemKey => ({ pk: `DISPUTE#${disputeId}`, sk: `MSG#${createdAt}#${id}` }),
  disputeMessagePrefix: () => 'MSG#',
  /** The admin's resolution templates: one small partition, read whole. */
  resolutionTemplate: (templateId: string): ItemKey => ({ pk: 'TEMPLATES', sk: `TEMPLATE#${templateId}` }),
  resolutionTemplates: () => 'TEMPLATES',
  /** One bulk resolution by the admin (dispute_bulk_actions). */
  disputeBulkAction: (id: string): ItemKey => ({ pk: `DISPUTEBULK#${id}`, sk: 'DISPUTEBULK' }),

  /**
   * The role a sign-up chose (TTL'd): the pre-sign-up trigger keeps it, the post-confirmation
   * trigger reads it into the profile. Never a user attribute, which the user could rewrite.
   */
  signUpRole: (email: string): ItemKey => ({ pk: `SIGNUP#${email}`, sk: 'ROLE' }),

  /** A fixed-window counter for one rate limit and subject (TTL'd). */
  rateCounter: (limit: string, subject: string, windowStart: number): ItemKey => ({
    pk: `RATE#${limit}#${subject}`,
    sk: String(windowStart),
  }),

  /**
   * GSI1 on worker profiles with a location and alerts on: the workers of one alert radius in
   * one geohash-4 cell; the sort key starts with their geohash-7 (functions/lib/geo-cells.ts).
   */
  workersInCell: (radiusMiles: number, cell4: string) => `GEO#${radiusMiles}#${cell4}`,

  /**
   * A worker's saved search (issue 46), in their partition, and the count of them (at most
   * MAX_SAVED_SEARCHES). GSI1: the saved searches of one radius in one geohash-4 cell, the sort
   * key starting with their centre's geohash-7: a new job reads those whose radius may reach it,
   * as nearby-job alerts read workers (workersInCell).
   */
  savedSearch: (workerId: string, searchId: string): ItemKey => ({ pk: `USER#${workerId}`, sk: `SAVEDSEARCH#${searchId}` }),
  savedSearchPrefix: () => 'SAVEDSEARCH#',
  savedSearchCount: (workerId: string): ItemKey => ({ pk: `USER#${workerId}`, sk: 'SAVEDSEARCHES' }),
  savedSearchesInCell: (radiusMiles: number, cell4: string) => `SEARCHGEO#${radiusMiles}#${cell4}`,

  /** GSI1 on notifications: one by its id (mark-read checks it is the caller's). */
  notificationById: (notificationId: string) => `NOTIFICATION#${notificationId}`,

  /** GSI2 on unread notifications only (removed when read): the user's unread, newest first. */
  unreadNotificationsOf: (userId: string) => `UNREAD#${userId}`,

  /**
   * The quiet period of a conversation's messages to one party who was away (no open
   * connection): written with the one new_message notification of the period, on condition that
   * the last period ended (functions/chat/away-messages.ts).
   */
  awayMessagesPeriod: (jobId: string, workerId: string, recipientId: string): ItemKey => ({ pk: `CONV#${jobId}#${workerId}`, sk: `AWAY#${recipientId}` }),

  /**
   * A browser's web push subscription, in its user's partition, by a hash of its endpoint (the
   * push service's URL, unique per browser and app): the same subscription saved twice is one item.
   */
  pushSubscription: (userId: string, endpointHash: string): ItemKey => ({ pk: `USER#${userId}`, sk: `PUSHSUB#${endpointHash}` }),
  pushSubscriptionPrefix: () => 'PUSHSUB#',

  /** Marks that a worker was alerted to a job (one alert per job and worker, ever). GSI3: by job. */
  nearbyAlert: (workerId: string, jobId: string): ItemKey => ({ pk: `USER#${workerId}`, sk: `NEARBY#${jobId}` }),

  /** How many nearby-job alerts a worker received on one calendar day of their zone (TTL'd). */
  nearbyAlertCount: (workerId: string, localDay: string): ItemKey => ({ pk: `USER#${workerId}`, sk: `ALERTDAY#${localDay}` }),

  /**
   * The nearby jobs waiting for a worker's next email digest (functions/location/nearby-digest.ts).
   * GSI2, only while jobs wait: `NEARBYDIGESTS#<shard>` / `<due time>#<workerId>`, so the hourly
   * digest run reads only the digests that are due, spread over DIGEST_SHARDS partitions.
   */
  nearbyDigest: (workerId: string): ItemKey => ({ pk: `USER#${workerId}`, sk: 'NEARBYDIGEST' }),
  nearbyDigestsDue: (shard: number) => `NEARBYDIGESTS#${shard}`,

  /**
   * That an account was deleted (issue 27), without anything personal: the user's id, role and
   * when. GSI1 "DELETIONS" by time, only until the 30-day sweep checked it (sparse).
   */
  accountDeletion: (userId: string): ItemKey => ({ pk: `DELETION#${userId}`, sk: 'DELETION' }),
  deletionsAwaitingSweep: () => 'DELETIONS',

  /**
   * One delivery of a notification by one off-site channel ('email', 'push'): put on condition
   * that it does not exist before sending, so a retried sender sends once (TTL'd).
   */
  notificationDelivery: (notificationId: string, channel: string): ItemKey => ({ pk: `DELIVERY#${notificationId}`, sk: channel }),

  /**
   * An email address SES reported as bouncing permanently or complaining: the mailer sends it
   * nothing more (the address in lower case; kept until an admin's decision to remove it).
   */
  emailSuppression: (email: string): ItemKey => ({ pk: `SUPPRESSED#${email.toLowerCase()}`, sk: 'EMAIL' }),

  /**
   * One money movement of the ledger (shared/ledger.ts), in its scope's partition (`job:<jobId>`,
   * or `worker:<workerId>` for payouts): the movement id is deterministic, so the key itself
   * writes a movement once. "Where is every cent of job X" is one Query of the partition.
   * GSI1: every movement by time, sharded by scope and movement (what reconciliation reads
   * since its checkpoint).
   */
  ledgerMovement: (scope: string, movementId: string): ItemKey => ({ pk: `LEDGER#${scope}`, sk: `MOVE#${movementId}` }),
  ledgerPartition: (scope: string) => `LEDGER#${scope}`,
  ledgerLog: () => shardedList('LEDGERLOG'),
  /**
   * A decision of the money process (functions/money/decision.ts), written before its
   * Stripe calls. GSI1, only while pending: every pending decision oldest first, sharded by its
   * id — what the retry schedule, the admin console and reconciliation read.
   */
  moneyDecision: (decisionId: string): ItemKey => ({ pk: `MONEYDECISION#${decisionId}`, sk: 'DECISION' }),
  pendingMoneyDecisions: () => shardedList('MONEYPENDING'),
  /** Where the last reconciliation with Stripe ended (its checkpoint) and what it found. */
  reconciliationCheckpoint: (): ItemKey => ({ pk: 'RECONCILIATION', sk: 'CHECKPOINT' }),

  /** A record that an event (a Stripe event, a request id) was already processed (TTL'd). */
  idempotency: (scope: string, id: string): ItemKey => ({ pk: `IDEMPOTENCY#${scope}#${id}`, sk: 'DONE' }),

  /**
   * A domain event waiting for delivery to the bus (the transactional outbox, TTL'd): written in
   * the transaction of the change it reports; the table's stream carries it to the bus.
   */
  outboxEvent: (eventId: string): ItemKey => ({ pk: `${OUTBOX_PREFIX}${eventId}`, sk: 'EVENT' }),
} as const;
