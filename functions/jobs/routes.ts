import {
  EVENT_SOURCE,
  JOB_EVENT,
  JOB_RULE_CHANGES,
  onChange,
  STRIPE_FUNCTION_TIMEOUT_SECONDS,
  type EventRule,
  type HttpRouteGroup,
} from '../declarations.js';

/**
 * The jobs feature's functions: its part of HTTP_ROUTE_GROUPS and EVENT_RULES, which
 * functions/routes.ts gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
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
      'GET /jobs/{id}': 'user',
      'POST /jobs': 'user',
      'PUT /jobs/{id}': 'user',
      'POST /jobs/{id}/cancel': 'user',
      'POST /jobs/{id}/unassign': 'user',
      'DELETE /jobs/{id}': 'user',
      'GET /me/jobs': 'user',
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
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  geocoding: {
    description: 'Geocodes a job address after it is posted or edited (best effort)',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated], detail: onChange(JOB_RULE_CHANGES.textAndAddress) },
    entry: 'functions/jobs/events/geocode-job.ts',
    capabilities: ['table:read', 'table:write', 'geocoding'],
    memoryMiB: 512,
  },
} as const satisfies Record<string, EventRule>;
