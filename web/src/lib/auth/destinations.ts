/** Where signed-in users are sent: their dashboard, and the welcome target after their first sign-in. */
import type { OwnProfile } from '../../../../shared/api';
import { ROLE_HOME, type Role } from '../../../../shared/roles';

/** The role's dashboard; the general one when the profile could not be loaded. */
export function dashboardPath(profile: Pick<OwnProfile, 'role'> | null): string {
  return profile ? ROLE_HOME[profile.role] : '/dashboard';
}

/** The query that asks the dashboard to greet a new user (spec 1 §2). */
export const WELCOME_PARAM = 'welcome';

/** After sign-up the admin is welcomed on the general dashboard, the others on their own (spec 1 §2). */
const WELCOME_HOME: Record<Role, string> = {
  worker: ROLE_HOME.worker,
  poster: ROLE_HOME.poster,
  admin: '/dashboard',
};

export function welcomePath(role: Role): string {
  return `${WELCOME_HOME[role]}?${WELCOME_PARAM}=true`;
}

/** The pages that show the welcome banner. */
export const WELCOME_PAGES: ReadonlySet<string> = new Set([...Object.values(WELCOME_HOME), ...Object.values(ROLE_HOME)]);
