import type { HttpRouteGroup } from '../declarations.js';

/**
 * The applications feature's functions: its part of HTTP_ROUTE_GROUPS, which functions/routes.ts
 * gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  applications: {
    entry: 'functions/applications/http/applications.ts',
    capabilities: ['table:read', 'table:write', 'images:read'],
    /** A completion sets when its payment is released automatically. */
    settings: ['autoReleaseSeconds'],
    routes: {
      'POST /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications/mine': 'user',
      'POST /jobs/{id}/applications/{workerId}/accept': 'user',
      'POST /jobs/{id}/applications/{workerId}/reject': 'user',
      'POST /jobs/{id}/complete': 'user',
      'POST /jobs/{id}/decline-completion': 'user',
      'POST /jobs/{id}/auto-release/pause': 'user',
      'POST /jobs/{id}/auto-release/resume': 'user',
      'GET /me/applications': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;
