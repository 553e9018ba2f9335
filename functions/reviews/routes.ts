import { EVENT_SOURCE, REVIEW_EVENT, type EventRule, type HttpRouteGroup } from '../declarations.js';

/**
 * The reviews feature's functions: its part of HTTP_ROUTE_GROUPS and EVENT_RULES, which
 * functions/routes.ts gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  reviews: {
    entry: 'functions/reviews/http/reviews.ts',
    capabilities: ['table:read', 'table:write', 'images:read'],
    routes: {
      'POST /jobs/{id}/reviews': 'user',
      'PUT /jobs/{id}/reviews/{reviewerId}': 'user',
      'GET /profiles/{id}/reviews': 'user',
      'GET /jobs/{id}/reviews': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  reviewPush: {
    description: 'Delivers a new or changed review live to the user it is about',
    pattern: { source: [EVENT_SOURCE.reviews], 'detail-type': [REVIEW_EVENT.saved] },
    entry: 'functions/reviews/events/review-push.ts',
    capabilities: ['table:read', 'table:write', 'sockets:push'],
  },
} as const satisfies Record<string, EventRule>;
