/**
 * The API stages' throttles, derived from a model of the traffic a marketplace of a planned
 * size sends (docs/scale.md explains each assumption and prints the model's table). API Gateway
 * applies a stage's throttle to each route on its own: a token bucket of `burstLimit` requests
 * refilled at `rateLimit` per second; a request without a token is answered 429 (HTTP) or
 * dropped with a "Too Many Requests" frame (WebSocket). A throttle is there so that a runaway
 * client cannot run up the Lambda and DynamoDB bill; sized from the model, it never turns
 * away what the planned users send, a mass reconnect included. The CDK app sets them (a deploy
 * changes the planned size with `-c plannedUsers=`); the local gateways enforce the same.
 */

export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** A stage's throttle: every route's own bucket at `default`, unless `routes` names the route. */
export interface ApiThrottle {
  readonly default: RouteThrottle;
  readonly routes?: Readonly<Record<string, RouteThrottle>>;
}

/** The model's assumptions, per registered user (docs/scale.md, "Assumptions"). */
export const TRAFFIC_MODEL = {
  /** Share of registered users active on a day. */
  dailyActiveShare: 0.2,
  httpRequestsPerActiveUser: 40,
  /** Each session is one open tab, so one socket. */
  sessionsPerActiveUser: 3,
  sessionMinutes: 10,
  /**
   * What a browser sends on a session's socket: a subscribe when it opens and at each page
   * change (5 pages), an unsubscribe at each change (4), a ping every 5 minutes (shared/live.ts
   * PING_INTERVAL_MS). Chat messages are sent over HTTP, not the socket.
   */
  socketMessagesPerSession: { subscribe: 5, unsubscribe: 4, ping: 2 },
  /** All traffic in 12 hours, the peak hour twice their mean: the peak second is the day ÷ 21,600. */
  peakSecondsPerDay: 21_600,
  /** Each hot HTTP route's share of the requests; the rest are spread over ~100 routes. */
  hotRouteShares: { 'GET /jobs': 0.3, 'GET /jobs/{id}': 0.15, 'GET /me/dashboard': 0.1, 'GET /conversations/{id}/messages': 0.05, 'POST /conversations/{id}/messages': 0.05 },
} as const;

/** API Gateway's account quotas the throttles must stay within (per account and Region). */
export const ACCOUNT_QUOTAS = {
  /** New WebSocket connections per second: a mass reconnect is admitted at this pace at best. */
  newConnectionsPerSecond: 500,
  /** Requests per second over every API, WebSocket messages and @connections pushes included. */
  requestsPerSecond: 10_000,
} as const;

/** Each throttle allows this many times the model's peak: a busy day, a post that goes viral. */
export const THROTTLE_HEADROOM = 3;
/** No route gets less: a few testers or a demo never meet the throttle. */
export const MIN_ROUTE_THROTTLE: RouteThrottle = { rateLimit: 100, burstLimit: 200 };
/** The planned size a deploy throttles for unless it says otherwise. */
export const DEFAULT_PLANNED_USERS = 1_000_000;
/** A mass reconnect (a deploy, a network blip) should be done within this, the account quota allowing. */
const RECONNECT_SECONDS = 30;

/** The model's peak-second load at `users` registered users. */
export function peakLoad(users: number) {
  const m = TRAFFIC_MODEL;
  const activeUsers = users * m.dailyActiveShare;
  const sessionsPerDay = activeUsers * m.sessionsPerActiveUser;
  const perPeakSecond = (daily: number) => daily / m.peakSecondsPerDay;
  const messagesPerSession = Object.values(m.socketMessagesPerSession).reduce((sum, count) => sum + count, 0);
  const httpPerSecond = perPeakSecond(activeUsers * m.httpRequestsPerActiveUser);
  // The open sockets at the peak: sessions × their minutes over the 12 busy hours, doubled at the peak.
  const openSockets = ((sessionsPerDay * m.sessionMinutes) / (12 * 60)) * 2;
  return {
    httpPerSecond,
    routesPerSecond: Object.fromEntries(Object.entries(m.hotRouteShares).map(([route, share]) => [route, httpPerSecond * share])) as Record<keyof typeof m.hotRouteShares, number>,
    connectsPerSecond: perPeakSecond(sessionsPerDay),
    socketMessagesPerSecond: perPeakSecond(sessionsPerDay * messagesPerSession),
    openSockets,
    /** A mass reconnect's pace: every open socket again within RECONNECT_SECONDS, at most the account's quota. */
    reconnectsPerSecond: Math.min(ACCOUNT_QUOTAS.newConnectionsPerSecond, openSockets / RECONNECT_SECONDS),
  };
}

const roundUpToHundreds = (value: number) => Math.ceil(value / 100) * 100;

/** A route's throttle for a peak of `perSecond`: the headroom over it, at least the minimum; bursts of two seconds' worth. */
function throttleFor(perSecond: number): RouteThrottle {
  const rateLimit = Math.max(MIN_ROUTE_THROTTLE.rateLimit, roundUpToHundreds(perSecond * THROTTLE_HEADROOM));
  return { rateLimit, burstLimit: rateLimit * 2 };
}

/**
 * The HTTP and WebSocket stages' throttles for `plannedUsers` registered users.
 *
 * HTTP: one default for every route, sized for the busiest (`GET /jobs`). Per-route settings
 * would need the stage created after its routes, and the routes live in the stack after the
 * stage's (infra/stacks/build-app.ts); every other route's peak is well under the busiest's.
 *
 * WebSocket: `$connect` takes the steady connects and a mass reconnect; `$default` (every
 * message: subscribe, unsubscribe, ping) takes the steady messages plus one subscribe per
 * reconnecting socket (its topics in one message: shared/live.ts LIVE_LIMITS).
 */
export function apiThrottles(plannedUsers: number = DEFAULT_PLANNED_USERS): { http: ApiThrottle; webSocket: ApiThrottle } {
  const peak = peakLoad(plannedUsers);
  const busiestRoute = Math.max(...Object.values(peak.routesPerSecond));
  return {
    http: { default: throttleFor(busiestRoute) },
    webSocket: {
      default: MIN_ROUTE_THROTTLE,
      routes: {
        $connect: throttleFor(Math.max(peak.connectsPerSecond, peak.reconnectsPerSecond / THROTTLE_HEADROOM)),
        $default: throttleFor(peak.socketMessagesPerSecond + peak.reconnectsPerSecond / THROTTLE_HEADROOM),
      },
    },
  };
}
