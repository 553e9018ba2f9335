import { STRIPE_FUNCTION_TIMEOUT_SECONDS, type HttpRouteGroup } from '../declarations.js';

/**
 * The applications feature's functions: its part of HTTP_ROUTE_GROUPS, which functions/routes.ts
 * gathers from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  applications: {
    entry: 'functions/applications/http/applications.ts',
    /** Accepting an offer under the budget, or approving a lower price, refunds the difference (Stripe), and the admin's console hears of it. */
    capabilities: ['table:read', 'table:write', 'images:read', 'stripe', 'sockets:push'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    /** A completion sets when its payment is released automatically. */
    settings: ['autoReleaseSeconds'],
    routes: {
      'POST /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications': 'user',
      'GET /jobs/{id}/applications/mine': 'user',
      'PUT /jobs/{id}/applications/mine': 'user',
      'DELETE /jobs/{id}/applications/mine': 'user',
      'POST /jobs/{id}/applications/mine/counter': 'user',
      'POST /jobs/{id}/applications/{workerId}/counter': 'user',
      'POST /jobs/{id}/applications/{workerId}/accept': 'user',
      'POST /jobs/{id}/applications/{workerId}/reject': 'user',
      'POST /jobs/{id}/complete': 'user',
      'POST /jobs/{id}/decline-completion': 'user',
      'POST /jobs/{id}/auto-release/pause': 'user',
      'POST /jobs/{id}/auto-release/resume': 'user',
      'GET /me/applications': 'user',
      'GET /jobs/{id}/questions': 'user',
      'POST /jobs/{id}/questions': 'user',
      'POST /jobs/{id}/questions/{questionId}/answer': 'user',
      'POST /jobs/{id}/price-change': 'user',
      'DELETE /jobs/{id}/price-change': 'user',
      'POST /jobs/{id}/price-change/approve': 'user',
      'POST /jobs/{id}/price-change/decline': 'user',
      'GET /jobs/{id}/price-changes': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;
