import type { FunctionDeclaration, HttpRouteGroup, RecurringSchedule } from '../declarations.js';

/**
 * The people feature's functions: its part of HTTP_ROUTE_GROUPS, RECURRING_SCHEDULES,
 * COGNITO_TRIGGERS and DEPLOY_FUNCTIONS, which functions/routes.ts gathers from every feature (the
 * same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  accounts: {
    entry: 'functions/people/http/accounts.ts',
    capabilities: ['table:read'],
    routes: {
      'GET /accounts/admin-status': 'public',
    },
  },
  profiles: {
    entry: 'functions/people/http/profiles.ts',
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write'],
    routes: {
      'GET /me': 'user',
      'PATCH /me': 'user',
      'GET /profiles/{id}': 'user',
      'GET /me/export': 'user',
    },
  },
  /**
   * Account deletion (issue 27): its own function, the only one that may delete a Cognito user.
   * images: the avatar is deleted; sockets: the user's open connections are closed.
   */
  accountDeletion: {
    entry: 'functions/people/http/account-deletion.ts',
    // stripe: the account's open jobs are refunded and its drafts' payments cancelled as they are withdrawn.
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write', 'sockets:push', 'userpool:delete-user', 'stripe'],
    timeoutSeconds: 29,
    routes: {
      'POST /me/deletion': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const RECURRING_SCHEDULES = {
  /** Proves that nothing personal of an account deleted 30 days ago remains (functions/people/account-deletion.ts). */
  deletionSweep: {
    description: 'Checks accounts deleted 30 or more days ago for personal data left behind, removes it and records the result',
    entry: 'functions/people/schedules/deletion-sweep.ts',
    // stripe: an open job or draft still found is withdrawn as at the deletion (refunded, its payment cancelled).
    capabilities: ['table:read', 'table:write', 'images:read', 'images:write', 'sockets:push', 'userpool:delete-user', 'stripe'],
    timeoutSeconds: 300,
    rateMinutes: 24 * 60,
  },
} as const satisfies Record<string, RecurringSchedule>;

export const COGNITO_TRIGGERS = {
  preSignUp: { entry: 'functions/people/auth/pre-sign-up.ts', capabilities: ['table:read', 'table:write'], settings: ['adminSeatByDeploy'] },
  preAuthentication: { entry: 'functions/people/auth/pre-authentication.ts', capabilities: ['table:read', 'table:write'] },
  postAuthentication: { entry: 'functions/people/auth/post-authentication.ts', capabilities: ['table:write'] },
  postConfirmation: {
    entry: 'functions/people/auth/post-confirmation.ts',
    capabilities: ['table:read', 'table:write', 'userpool:admin-group'],
  },
} as const satisfies Record<string, FunctionDeclaration>;

export const DEPLOY_FUNCTIONS = {
  adminSeat: { entry: 'functions/people/deploy/admin-seat.ts', capabilities: ['table:read', 'table:write', 'userpool:create-admin'] },
} as const satisfies Record<string, FunctionDeclaration>;
