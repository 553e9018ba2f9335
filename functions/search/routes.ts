import { EVENT_SOURCE, JOB_EVENT, JOB_RULE_CHANGES, onChange, type EventRule, type HttpRouteGroup } from '../declarations.js';

/**
 * The search feature's functions: its part of HTTP_ROUTE_GROUPS and EVENT_RULES, which functions/routes.ts gathers from
 * every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  search: {
    entry: 'functions/search/http/search.ts',
    // table:write: every signed-in request spends the caller's budget (functions/lib/client-budget.ts);
    // images:read: the cards' image URLs. The open jobs' index lives in the function's memory (issue 46).
    capabilities: ['table:read', 'table:write', 'images:read'],
    memoryMiB: 1024,
    routes: {
      'GET /jobs': 'public',
      'GET /feed/jobs': 'user',
    },
  },
  savedSearches: {
    entry: 'functions/search/http/saved-searches.ts',
    capabilities: ['table:read', 'table:write'],
    routes: {
      'GET /me/saved-searches': 'user',
      'POST /me/saved-searches': 'user',
      'DELETE /me/saved-searches/{id}': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  searchIndex: {
    description: "Keeps each job's search document in line with every job change",
    pattern: {
      source: [EVENT_SOURCE.jobs],
      'detail-type': [JOB_EVENT.posted, JOB_EVENT.updated, JOB_EVENT.removed],
      detail: onChange([{ 'anything-but': JOB_RULE_CHANGES.sameSearchEntry }]),
    },
    entry: 'functions/search/events/search-index.ts',
    capabilities: ['table:read', 'table:write'],
  },
  savedSearchAlerts: {
    description: "Alerts the workers whose saved searches a job that just opened matches",
    pattern: { source: [EVENT_SOURCE.jobs], 'detail-type': [JOB_EVENT.posted] },
    entry: 'functions/search/events/saved-search-alerts.ts',
    capabilities: ['table:read', 'table:write', 'geocoding'],
    timeoutSeconds: 60,
    memoryMiB: 512,
  },
} as const satisfies Record<string, EventRule>;
