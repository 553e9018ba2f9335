import { lazy } from 'react';
import { createBrowserRouter } from 'react-router-dom';
import { MSG } from '../../shared/messages';
import { ROLE_HOME } from '../../shared/roles';
import { ACCOUNT_ROUTES } from './account-routes';
import { RequireAccess } from './components/RequireAccess';
import { Layout } from './components/layout/Layout';

// Every screen is its own chunk (screens default-export for React.lazy).
const LandingScreen = lazy(() => import('./screens/LandingScreen'));
const SignUpScreen = lazy(() => import('./screens/SignUpScreen'));
const SignInScreen = lazy(() => import('./screens/SignInScreen'));
const VerifyEmailScreen = lazy(() => import('./screens/VerifyEmailScreen'));
const PostJobScreen = lazy(() => import('./screens/PostJobScreen'));
const JobDetailScreen = lazy(() => import('./screens/JobDetailScreen'));
const DashboardScreen = lazy(() => import('./screens/DashboardScreen'));
const WorkerDashboardScreen = lazy(() => import('./screens/worker-dashboard/WorkerDashboardScreen'));
const PosterDashboardScreen = lazy(() => import('./screens/poster-dashboard/PosterDashboardScreen'));
const AdminDashboardScreen = lazy(() => import('./screens/admin-dashboard/AdminDashboardScreen'));
const ProfileScreen = lazy(() => import('./screens/ProfileScreen'));
const NotFoundScreen = lazy(() => import('./screens/NotFoundScreen'));
const DisputeCenterScreen = lazy(() => import('./screens/DisputeCenterScreen'));
const PublicProfileScreen = lazy(() => import('./screens/PublicProfileScreen'));

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
