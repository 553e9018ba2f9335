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
 * The admin feature's functions: its part of HTTP_ROUTE_GROUPS and EVENT_RULES, which
 * functions/routes.ts gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
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
      'POST /admin/users/{id}/identity-revocation': 'admin',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
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
  jobFlags: {
    description: 'Flags a posted or edited job whose text asks for off-platform payment or holds contact details, or whose payment was suspicious',
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated], detail: onChange(JOB_RULE_CHANGES.textAndAddress) },
    entry: 'functions/admin/events/flag-job.ts',
    capabilities: ['table:read', 'table:write'],
  },
} as const satisfies Record<string, EventRule>;
