import { EVENT_SOURCE, STRIPE_FUNCTION_TIMEOUT_SECONDS, type EventRule, type FunctionDeclaration, type HttpRouteGroup, type RecurringSchedule } from '../declarations.js';

/**
 * The people feature's functions: its part of HTTP_ROUTE_GROUPS, EVENT_RULES, RECURRING_SCHEDULES,
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
  /** Identity verification (issue 47): starts the Stripe Identity session the browser's verification modal opens. */
  identity: {
    entry: 'functions/people/http/identity.ts',
    // table:write: the session is saved as the user's current one (and the caller's budget spent).
    capabilities: ['table:read', 'table:write', 'stripe'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
    routes: {
      'POST /me/identity-check': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  identityChecks: {
    description: "Saves the result of a user's identity check on their profile (once, in order) and tells them",
    pattern: {
      source: [EVENT_SOURCE.stripe],
      'detail-type': [
        'identity.verification_session.processing',
        'identity.verification_session.verified',
        'identity.verification_session.requires_input',
        'identity.verification_session.canceled',
        'identity.verification_session.redacted',
      ],
    },
    entry: 'functions/people/events/identity-check.ts',
    // stripe: the session is read again, whatever the event says (events come out of order and twice).
    capabilities: ['table:read', 'table:write', 'stripe'],
    timeoutSeconds: STRIPE_FUNCTION_TIMEOUT_SECONDS,
  },
} as const satisfies Record<string, EventRule>;

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
