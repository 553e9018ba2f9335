import type { HttpRouteGroup } from '../declarations.js';

/**
 * The chat feature's functions: its part of HTTP_ROUTE_GROUPS, which functions/routes.ts gathers
 * from every feature (the same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  conversations: {
    entry: 'functions/chat/http/conversations.ts',
    capabilities: ['table:read', 'table:write', 'images:read', 'sockets:push'],
    routes: {
      'GET /conversations': 'user',
      'POST /conversations': 'user',
      'GET /conversations/{id}': 'user',
      'GET /conversations/{id}/messages': 'user',
      'POST /conversations/{id}/messages': 'user',
      'POST /conversations/{id}/read': 'user',
      'PUT /conversations/{id}/block': 'user',
      'DELETE /conversations/{id}/block': 'user',
      'GET /me/unread-messages': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;
