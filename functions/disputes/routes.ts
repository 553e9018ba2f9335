import type { HttpRouteGroup } from '../declarations.js';

/**
 * The disputes feature's functions: its part of HTTP_ROUTE_GROUPS, which functions/routes.ts
 * gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  disputes: {
    entry: 'functions/disputes/http/disputes.ts',
    /** images:read: a dispute that stops a pending auto-release writes the job's event, whose summary carries its image URLs. */
    // stripe: a resolution decides the job's held money (a transfer, a refund or both).
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push', 'stripe'],
    /** A resolution that decides no money gives the auto-release back, at least a day (or the local delay) from then. */
    settings: ['autoReleaseSeconds'],
    /** A bulk resolution of 100 disputes is 100 transactions; the HTTP API waits at most 30 s. */
    timeoutSeconds: 29,
    routes: {
      'GET /jobs/{id}/dispute': 'user',
      'POST /jobs/{id}/dispute': 'user',
      'GET /me/disputes': 'user',
      'GET /disputes/{id}/messages': 'user',
      'POST /disputes/{id}/messages': 'user',
      'GET /admin/disputes': 'admin',
      'PUT /admin/disputes/{id}/priority': 'admin',
      'POST /admin/disputes/{id}/resolve': 'admin',
      'POST /admin/disputes/bulk-resolve': 'admin',
      'GET /admin/dispute-templates': 'admin',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;
