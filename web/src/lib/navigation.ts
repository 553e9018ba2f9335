/** What the header, the user menu and the mobile menu link to, per role (spec 1 §2 "Header navigation"). */
import type { OwnProfile } from '../../../shared/api';
import { ROLE_HOME } from '../../../shared/roles';
import { dashboardPath } from './auth/destinations';
import { MSG } from '../../../shared/messages';
import { EARNINGS_PATH, MESSAGES_PATH } from '../../../shared/app-paths';

/** The signed-in user's profile (only the role matters here); null for visitors and when it could not be loaded. */
type ViewerProfile = Pick<OwnProfile, 'role'> | null;

export interface NavItem {
  to: string;
  label: string;
}

export { MESSAGES_PATH, EARNINGS_PATH, OPEN_DISPUTE_PARAM, adminTabPath } from '../../../shared/app-paths';

/**
 * The admin's sections, linked from the mobile menu (spec 1 §2). The spec shows no screens
 * of their own: each path opens the matching tab of the admin console (account-routes.tsx).
 */
export const ADMIN_SECTIONS = [
  { to: '/admin/users', label: 'Users' },
  { to: '/admin/jobs', label: 'Jobs' },
  { to: '/admin/categories', label: 'Categories' },
  { to: '/admin/reports', label: 'Reports' },
] as const satisfies readonly NavItem[];

const FIND_JOBS_SIGNED_OUT: NavItem = { to: '/#jobs', label: 'Find Jobs' };
const FIND_JOBS: NavItem = { to: '/dashboard', label: 'Find Jobs' };
/** A worker's open-jobs board is a section of their dashboard: Find Jobs lands on it, not on the page's top. */
export const WORKER_JOBS_PATH = `${ROLE_HOME.worker}#available-jobs`;
const FIND_JOBS_WORKER: NavItem = { to: WORKER_JOBS_PATH, label: 'Find Jobs' };
const POST_JOB: NavItem = { to: '/post-job', label: 'Post Job' };
/** Everyone's email and push choices (and a worker's job alerts); the spec's menus name no entry for it (docs/decisions/0260-notification-settings-in-every-menu.md). */
const NOTIFICATION_SETTINGS: NavItem = { to: '/notification-settings', label: MSG.nav.notificationSettings };

/** Where a signed-in user finds jobs: the worker's board on their dashboard, the job browser for the others. */
const findJobsOf = (profile: ViewerProfile): NavItem => (profile?.role === 'worker' ? FIND_JOBS_WORKER : FIND_JOBS);

/**
 * The header's links besides Messages, which every signed-in user has as a button of its own
 * (it carries the unread badge). `profile` is null for visitors, and for a signed-in user
 * whose profile could not be loaded.
 */
export function mainNavItems(signedIn: boolean, profile: ViewerProfile): NavItem[] {
  if (!signedIn) return [FIND_JOBS_SIGNED_OUT, POST_JOB];
  const dashboard: NavItem = { to: dashboardPath(profile), label: 'Dashboard' };
  switch (profile?.role) {
    case 'poster':
      return [dashboard, POST_JOB];
    case 'worker':
      return [FIND_JOBS_WORKER, dashboard];
    case 'admin':
      return [dashboard, findJobsOf(profile)];
    default:
      // Without a profile the general dashboard is the job browser itself.
      return [dashboard];
  }
}

/** The user menu's links, in the spec's order; Sign Out follows them. */
export function userMenuItems(profile: ViewerProfile): NavItem[] {
  const role = profile?.role;
  return [
    { to: '/profile', label: 'Profile' },
    // The admin's dashboard is the Admin Dashboard entry below.
    ...(role === 'admin' ? [] : [{ to: dashboardPath(profile), label: 'Dashboard' }]),
    ...(role === 'worker' ? [{ to: EARNINGS_PATH, label: MSG.nav.myEarnings }] : []),
    { to: MESSAGES_PATH, label: 'Messages' },
    NOTIFICATION_SETTINGS,
    ...(role === 'admin' ? [{ to: ROLE_HOME.admin, label: MSG.nav.adminDashboard }] : []),
  ];
}

/** The mobile menu's links; signed-in users also get Sign Out, visitors the /signin and /signup aliases. */
export function mobileMenuItems(signedIn: boolean, profile: ViewerProfile): NavItem[] {
  if (!signedIn) {
    return [FIND_JOBS_SIGNED_OUT, POST_JOB, { to: '/signin', label: 'Sign In' }, { to: '/signup', label: 'Sign Up' }];
  }
  return [
    { to: dashboardPath(profile), label: 'Dashboard' },
    ...(profile ? [findJobsOf(profile)] : []),
    ...(profile?.role === 'admin' ? ADMIN_SECTIONS.map((section) => ({ ...section, label: `Admin: ${section.label}` })) : []),
    { to: '/profile', label: MSG.nav.profileSettings },
    NOTIFICATION_SETTINGS,
  ];
}

/** The badge's text: nothing at zero, the count up to 99, then '99+' (spec 1 §9). */
export function unreadBadgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
