/**
 * The live socket's topics and the messages a browser sends on it. A browser subscribes to the
 * topics of what it shows; the server pushes a job change only to the sockets subscribed to a
 * topic the change touches (functions/live/live-feed.ts says which).
 */

/** Who a visitor's connection is, as the $connect authorizer names it (signed-in connections are their user's id). */
export const ANONYMOUS_PRINCIPAL = 'anonymous';

/** The landing grid and searches: jobs that (newly) open, and open jobs that change or leave. */
export const FEED_TOPIC = 'feed';
/** The caller's own jobs (a poster's posted, a worker's assigned): the dashboards and own lists. */
export const OWN_JOBS_TOPIC = 'mine';
/** A category's grid: as FEED_TOPIC, for the jobs of one category. */
export const categoryTopic = (category: string) => `category:${category}`;
/** One job's page: every change of that job, applications included. */
export const jobTopic = (jobId: string) => `job:${jobId}`;

/** Topics in one subscribe or unsubscribe message (and a topic's length) at most. */
export const LIVE_LIMITS = { topicsPerMessage: 50, topicLength: 120, topicsPerConnection: 200 } as const;

/**
 * How often a browser pings an idle socket: API Gateway closes a connection after 10 minutes
 * without a message either way, so every 5 minutes keeps it open with room to spare.
 */
export const PING_INTERVAL_MS = 5 * 60_000;

/** What a browser sends on the socket. */
export type LiveRequest =
  /**
   * `since`: the cursor of the last job push this socket saw before it reconnected; the server
   * then sends the newest state of every job of these topics that changed after it (once each).
   */
  | { action: 'subscribe'; topics: string[]; since?: string }
  | { action: 'unsubscribe'; topics: string[] }
  | { action: 'ping' };

/** The server's answers on the socket (besides the pushes of shared/api.ts LiveMessage). */
export type LiveReply =
  | { type: 'pong' }
  /**
   * After a subscribe: `cursor` is where the next catch-up starts. `complete` false: `since`
   * was older than the catch-up keeps (or absent), so what the socket missed is unknown and the
   * browser reads its lists again.
   */
  | { type: 'subscribed'; topics: string[]; cursor: string; complete: boolean };
