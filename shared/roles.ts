export const ROLES = ['worker', 'poster', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Sign-up carries the chosen role as client metadata under this key, not as a user attribute:
 * the web client may not write `custom:role`, so no user can rewrite their role later.
 */
export const SIGN_UP_ROLE_METADATA = 'role';

/** The Cognito group the one admin is in; admin routes check this claim of the token. */
export const ADMIN_GROUP = 'admin';

/** Where each role lands after signing in (spec 1 §2 "Sign-in screen"). */
export const ROLE_HOME: Record<Role, string> = {
  worker: '/worker-dashboard',
  poster: '/poster-dashboard',
  admin: '/admin-dashboard',
};

export const ROLE_LABEL: Record<Role, string> = {
  worker: 'Worker',
  poster: 'Job Poster',
  admin: 'Admin',
};
