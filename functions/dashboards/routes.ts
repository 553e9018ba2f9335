import type { HttpRouteGroup } from '../declarations.js';

/**
 * The dashboards feature's functions: its part of HTTP_ROUTE_GROUPS, which functions/routes.ts
 * gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  dashboards: {
    entry: 'functions/dashboards/http/dashboards.ts',
    capabilities: ['table:read', 'images:read'],
    routes: {
      'GET /me/dashboard': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;
