import type { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { createBrowserRouter, matchPath, type LoaderFunction, type RouteObject } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { ROLE_HOME } from '../../../shared/roles';
import type { ApiClient } from '../lib/api/client';
import type { ClientLoader } from '../lib/api/client-loader';
import { FIRST_READS } from '../lib/api/first-reads';
import { hasStoredSession } from '../lib/auth/session';
import { LoadingState } from '../lib/components/LoadingState';
import { ACCOUNT_ROUTES } from './account-routes';
import { RequireAccess } from './RequireAccess';
import { Layout } from './layout/Layout';
import { preloadSignedInControls } from './layout/SiteHeader';
import { loadAdminDashboardScreen, loadAdminUserScreen } from '../features/admin';
import { loadSignInScreen, loadSignUpScreen, loadVerifyEmailScreen } from '../features/auth';
import { loadDashboardScreen, loadPosterDashboardScreen, loadWorkerDashboardScreen, posterDashboardClientLoader, workerDashboardClientLoader } from '../features/dashboards';
import { loadDisputeCenterScreen } from '../features/disputes';
import { jobDetailClientLoader, loadJobDetailScreen, loadPostJobScreen } from '../features/jobs';
import { loadLandingScreen } from '../features/landing';
import { loadProfileScreen, loadPublicProfileScreen } from '../features/profile';

// Every screen is its own chunk: a feature's index hands out loaders of its screens (from its
// routes.ts; a screen module default-exports the screen for React.lazy), never the screens.
const LandingScreen = lazy(loadLandingScreen);
const SignUpScreen = lazy(loadSignUpScreen);
const SignInScreen = lazy(loadSignInScreen);
const VerifyEmailScreen = lazy(loadVerifyEmailScreen);
const PostJobScreen = lazy(loadPostJobScreen);
const JobDetailScreen = lazy(loadJobDetailScreen);
const DashboardScreen = lazy(loadDashboardScreen);
const WorkerDashboardScreen = lazy(loadWorkerDashboardScreen);
const PosterDashboardScreen = lazy(loadPosterDashboardScreen);
const AdminDashboardScreen = lazy(loadAdminDashboardScreen);
const AdminUserScreen = lazy(loadAdminUserScreen);
const ProfileScreen = lazy(loadProfileScreen);
const NotFoundScreen = lazy(() => import('./screens/NotFoundScreen'));
const DisputeCenterScreen = lazy(loadDisputeCenterScreen);
const PublicProfileScreen = lazy(loadPublicProfileScreen);

// Signing in needs the header's signed-in controls next: the sign-in screen downloads them early.
const signInScreen = <SignInScreen preloadSignedInControls={preloadSignedInControls} />;

/** The screens most visits start on, by path. */
const FIRST_SCREENS: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
  ['/', loadLandingScreen],
  [FIRST_READS.jobDetail.path, loadJobDetailScreen],
  ['/dashboard', loadDashboardScreen],
  [FIRST_READS.workerDashboard.path, loadWorkerDashboardScreen],
  [FIRST_READS.posterDashboard.path, loadPosterDashboardScreen],
];

/**
 * Starts downloading the screen of `pathname` (when it is one of the first screens) at start-up,
 * beside /config.json and the session, rather than once the router renders it; React.lazy then
 * finds the module already on its way.
 */
export function preloadScreen(pathname: string): void {
  const screen = FIRST_SCREENS.find(([path]) => matchPath(path, pathname));
  // A failed download is React.lazy's to report, when the screen renders.
  screen?.[1]().catch(() => undefined);
}

/**
 * The app's router. Routes with data start reading it when they are entered, beside their chunk
 * (React.lazy) and the session's restore: the loader only starts the screen's ClientLoader and
 * answers at once, so nothing waits for it; the screen's hooks find the requests in the cache.
 */
export const createAppRouter = (queryClient: QueryClient, api: ApiClient) => createBrowserRouter(appRoutes(queryClient, api));

/** The app's routes (see createAppRouter); apart so that a test can hold them in a memory router. */
export function appRoutes(queryClient: QueryClient, api: ApiClient): RouteObject[] {
  // Only a kept session can read these routes' data; a visitor is sent elsewhere anyway.
  const preloading =
    (clientLoader: ClientLoader): LoaderFunction =>
    ({ params }) => {
      // A failed read stays in the cache as the query's error, for the screen to show (it reads again).
      if (hasStoredSession()) clientLoader(queryClient, api, params).catch(() => undefined);
      return null;
    };
  // What shows while a preloading route's loader answers, on the first load (at once, see above).
  const hydrateFallbackElement = <LoadingState label={MSG.auth.checkingAuthentication} />;
  return [
    {
      element: <Layout />,
      children: [
        { index: true, element: <LandingScreen /> },
        { path: 'sign-up', element: <SignUpScreen /> },
        { path: 'signup', element: <SignUpScreen /> },
        { path: 'sign-in', element: signInScreen },
        { path: 'signin', element: signInScreen },
        { path: 'dashboard', element: <DashboardScreen /> },
        {
          path: 'post-job',
          element: (
            <RequireAccess roles={['poster']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard" deniedMessage={MSG.jobs.onlyPostersCanCreate}>
              <PostJobScreen />
            </RequireAccess>
          ),
        },
        {
          path: FIRST_READS.jobDetail.path,
          loader: preloading(jobDetailClientLoader),
          hydrateFallbackElement,
          element: (
            <RequireAccess signedOutTo="/sign-up">
              <JobDetailScreen />
            </RequireAccess>
          ),
        },
        {
          path: 'jobs/:jobId/dispute',
          element: (
            <RequireAccess roles={['worker', 'poster']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard">
              <DisputeCenterScreen />
            </RequireAccess>
          ),
        },
        {
          path: FIRST_READS.workerDashboard.path,
          loader: preloading(workerDashboardClientLoader),
          hydrateFallbackElement,
          element: (
            <RequireAccess roles={['worker']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard">
              <WorkerDashboardScreen />
            </RequireAccess>
          ),
        },
        {
          path: FIRST_READS.posterDashboard.path,
          loader: preloading(posterDashboardClientLoader),
          hydrateFallbackElement,
          element: (
            <RequireAccess roles={['poster']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard">
              <PosterDashboardScreen />
            </RequireAccess>
          ),
        },
        {
          path: ROLE_HOME.admin,
          element: (
            <RequireAccess roles={['admin']} signedOutTo="/" deniedTo="/" deniedMessage={MSG.auth.insufficientPermissions}>
              <AdminDashboardScreen />
            </RequireAccess>
          ),
        },
        {
          path: 'admin/users/:id',
          element: (
            <RequireAccess roles={['admin']} signedOutTo="/" deniedTo="/" deniedMessage={MSG.auth.insufficientPermissions}>
              <AdminUserScreen />
            </RequireAccess>
          ),
        },
        {
          path: 'profile',
          element: (
            <RequireAccess signedOutTo="/sign-in" returnAfterSignIn>
              <ProfileScreen />
            </RequireAccess>
          ),
        },
        {
          path: 'profiles/:id',
          element: (
            <RequireAccess signedOutTo="/sign-in" returnAfterSignIn>
              <PublicProfileScreen />
            </RequireAccess>
          ),
        },
        ...ACCOUNT_ROUTES,
        { path: '*', element: <NotFoundScreen /> },
      ],
    },
    {
      // The verification screen has no navigation bar (spec 2 §2).
      element: <Layout bare />,
      children: [{ path: 'verify-email', element: <VerifyEmailScreen /> }],
    },
  ];
}
