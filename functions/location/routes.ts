import { EVENT_SOURCE, JOB_EVENT, type EventRule, type HttpRouteGroup, type RecurringSchedule } from '../declarations.js';

/**
 * The location feature's functions: its part of HTTP_ROUTE_GROUPS, EVENT_RULES and
 * RECURRING_SCHEDULES, which functions/routes.ts gathers from every feature (the same names and
 * shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  location: {
    entry: 'functions/location/http/location.ts',
    // images:read: the answer is the caller's profile, whose avatar is an image URL.
    capabilities: ['table:read', 'table:write', 'images:read', 'geocoding'],
    routes: {
      'PUT /me/location': 'user',
      'PUT /me/notification-preferences': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  nearbyJobAlerts: {
    description: 'Alerts workers near a job that just opened (radius, categories, daily limit, quiet hours)',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted] },
    entry: 'functions/location/events/nearby-job-alerts.ts',
    capabilities: ['table:read', 'table:write', 'geocoding'],
    timeoutSeconds: 60,
    memoryMiB: 512,
  },
} as const satisfies Record<string, EventRule>;

export const RECURRING_SCHEDULES = {
  /** Emails each worker whose nearby-jobs digest is due (functions/location/nearby-digest.ts). */
  nearbyDigest: {
    description: "Emails the daily digest of new nearby jobs to each worker whose digest is due, outside their quiet hours, once per day of their zone",
    entry: 'functions/location/schedules/nearby-digest.ts',
    capabilities: ['table:read', 'table:write', 'mail:send', 'mail:unsubscribe-key'],
    settings: ['mailLinkOrigin', 'apiUrl'],
    timeoutSeconds: 300,
    rateMinutes: 60,
  },
} as const satisfies Record<string, RecurringSchedule>;
