import { EVENT_SOURCE, JOB_EVENT, type EventRule, type FunctionDeclaration, type QueueConsumer } from '../declarations.js';

/**
 * The live feature's functions: its part of EVENT_RULES, QUEUE_CONSUMERS and WEBSOCKET_API, which
 * functions/routes.ts gathers from every feature (the same names and shapes there).
 */
export const EVENT_RULES = {
  jobFeed: {
    description: 'Holds job inserts, updates and removals for one coalesced push to the browsers subscribed to them',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed] },
    entry: 'functions/live/events/job-feed.ts',
    capabilities: ['table:write', 'queue:job-feed'],
    /** How long changes of one job are gathered into one push. */
    settings: ['liveCoalescingSeconds'],
  },
} as const satisfies Record<string, EventRule>;

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
} as const satisfies Record<string, QueueConsumer>;

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
