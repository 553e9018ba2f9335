import { lazy } from 'react';
import { createBrowserRouter, matchPath } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { ROLE_HOME } from '../../../shared/roles';
import { ACCOUNT_ROUTES } from './account-routes';
import { RequireAccess } from './RequireAccess';
import { Layout } from './layout/Layout';

// Every screen is its own chunk (screens default-export for React.lazy).
const loadLandingScreen = () => import('../features/landing/screens/LandingScreen');
const loadJobDetailScreen = () => import('../features/jobs/screens/JobDetailScreen');
const loadDashboardScreen = () => import('../features/dashboards/screens/DashboardScreen');
const loadWorkerDashboardScreen = () => import('../features/dashboards/screens/worker-dashboard/WorkerDashboardScreen');
const loadPosterDashboardScreen = () => import('../features/dashboards/screens/poster-dashboard/PosterDashboardScreen');
const LandingScreen = lazy(loadLandingScreen);
const SignUpScreen = lazy(() => import('../features/auth/screens/SignUpScreen'));
const SignInScreen = lazy(() => import('../features/auth/screens/SignInScreen'));
const VerifyEmailScreen = lazy(() => import('../features/auth/screens/VerifyEmailScreen'));
const PostJobScreen = lazy(() => import('../features/jobs/screens/PostJobScreen'));
const JobDetailScreen = lazy(loadJobDetailScreen);
const DashboardScreen = lazy(loadDashboardScreen);
const WorkerDashboardScreen = lazy(loadWorkerDashboardScreen);
const PosterDashboardScreen = lazy(loadPosterDashboardScreen);
const AdminDashboardScreen = lazy(() => import('../features/admin/screens/AdminDashboardScreen'));
const ProfileScreen = lazy(() => import('../features/profile/screens/ProfileScreen'));
const NotFoundScreen = lazy(() => import('./screens/NotFoundScreen'));
const DisputeCenterScreen = lazy(() => import('../features/disputes/screens/DisputeCenterScreen'));
const PublicProfileScreen = lazy(() => import('../features/profile/screens/PublicProfileScreen'));

/** The screens most visits start on, by path. */
const FIRST_SCREENS: ReadonlyArray<readonly [string, () => Promise<unknown>]> = [
  ['/', loadLandingScreen],
  ['/jobs/:id', loadJobDetailScreen],
  ['/dashboard', loadDashboardScreen],
  [ROLE_HOME.worker, loadWorkerDashboardScreen],
  [ROLE_HOME.poster, loadPosterDashboardScreen],
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

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, element: <LandingScreen /> },
      { path: 'sign-up', element: <SignUpScreen /> },
      { path: 'signup', element: <SignUpScreen /> },
      { path: 'sign-in', element: <SignInScreen /> },
      { path: 'signin', element: <SignInScreen /> },
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
        path: 'jobs/:id',
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
        path: ROLE_HOME.worker,
        element: (
          <RequireAccess roles={['worker']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard">
            <WorkerDashboardScreen />
          </RequireAccess>
        ),
      },
      {
        path: ROLE_HOME.poster,
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
]);
