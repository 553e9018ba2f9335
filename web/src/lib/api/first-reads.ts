import { ROLE_HOME, type Role } from '../../../../shared/roles.js';

/** The API paths of the reads a page starts with: the fetchers of these reads build them here too. */
export const FIRST_READ_PATHS = {
  ownProfile: '/me',
  job: (id: string) => `/jobs/${encodeURIComponent(id)}`,
  ownApplication: (jobId: string) => `/jobs/${encodeURIComponent(jobId)}/applications/mine`,
  dashboard: '/me/dashboard',
  savedJobs: '/me/saved-jobs',
} as const;

type RouteParams = Readonly<Record<string, string | undefined>>;

/**
 * The pages that read data on entry: their route's path and the GETs they start with, for a
 * kept session whose user's role is remembered (null when not known). Declared once: the app's
 * router takes the paths, the routes' ClientLoaders (features/<f>/routes.ts) what to read, and
 * the early entry (web/src/early.ts) both, to start the reads before the app's code has arrived.
 */
export const FIRST_READS = {
  /** A worker's own application is read beside the job; a poster's page reads none, nor one whose role is unknown. */
  jobDetail: {
    path: '/jobs/:id',
    reads: ({ id = '' }: RouteParams, role: Role | null) => ({ job: FIRST_READ_PATHS.job(id), ownApplication: role === 'worker' ? FIRST_READ_PATHS.ownApplication(id) : null }),
  },
  /** The open-jobs grid keeps its own list. */
  workerDashboard: { path: ROLE_HOME.worker, reads: () => ({ dashboard: FIRST_READ_PATHS.dashboard, savedJobs: FIRST_READ_PATHS.savedJobs }) },
  posterDashboard: { path: ROLE_HOME.poster, reads: () => ({ dashboard: FIRST_READ_PATHS.dashboard }) },
} as const;

/**
 * The route parameters of `pathname` when it matches `path` (`/literal/:param` segments, as the
 * app's routes above are written), else null. Not react-router's matchPath: importing it from
 * the early entry would put all of react-router, and React, into the early entry's chunk.
 */
export function matchRoutePath(path: string, pathname: string): Record<string, string> | null {
  const expected = path.split('/').filter(Boolean);
  const actual = pathname.split('/').filter(Boolean);
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index]!;
    if (segment.startsWith(':')) {
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return null; // not a path the router would match either
      }
    } else if (segment !== value) return null;
  }
  return params;
}

/** The API paths `pathname`'s page starts reading (none for a page not in FIRST_READS). */
export function firstReadsOf(pathname: string, role: Role | null): string[] {
  for (const page of Object.values(FIRST_READS)) {
    const params = matchRoutePath(page.path, pathname);
    if (params) return Object.values(page.reads(params, role)).filter((path): path is string => path !== null);
  }
  return [];
}
