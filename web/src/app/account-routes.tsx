/**
 * The routes of the accounts and app-shell screens (spec 2 §2 route list). The router puts
 * them before its catch-all.
 */
import { lazy, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { RequireAccess } from './RequireAccess';
import { SignInRequired } from './layout/SignInRequired';
import { EARNINGS_PATH, MESSAGES_PATH, adminTabPath, type ADMIN_SECTIONS } from '../lib/navigation';
import { loadForgotPasswordScreen } from '../features/auth';
import { loadChatScreen, loadConversationsScreen } from '../features/chat';
import { loadPrivacyPolicyScreen, loadTermsOfServiceScreen } from '../features/landing';
import { UNSUBSCRIBE_PATH } from '../../../shared/unsubscribe-token';
import { loadNotificationSettingsScreen, loadNotificationsScreen, loadUnsubscribeScreen } from '../features/notifications';
import { loadWorkerEarningsScreen } from '../features/payments';
import { loadWorkerOnboardingScreen } from '../features/profile';

const ForgotPasswordScreen = lazy(loadForgotPasswordScreen);
const TermsOfServiceScreen = lazy(loadTermsOfServiceScreen);
const PrivacyPolicyScreen = lazy(loadPrivacyPolicyScreen);
const WorkerEarningsScreen = lazy(loadWorkerEarningsScreen);
const ConversationsScreen = lazy(loadConversationsScreen);
const ChatScreen = lazy(loadChatScreen);
const NotificationsScreen = lazy(loadNotificationsScreen);
const NotificationSettingsScreen = lazy(loadNotificationSettingsScreen);
const UnsubscribeScreen = lazy(loadUnsubscribeScreen);
const WorkerOnboardingScreen = lazy(loadWorkerOnboardingScreen);

/** Any signed-in user; signed-out visitors sign in and come back. */
const signedInOnly = (screen: ReactNode) => (
  <RequireAccess signedOutTo="/sign-in" returnAfterSignIn>
    {screen}
  </RequireAccess>
);

/** The admin's sections open the matching tab of the admin console (whose guard sends everyone else home). */
const ADMIN_SECTION_TABS: Record<(typeof ADMIN_SECTIONS)[number]['to'], string> = {
  '/admin/users': adminTabPath('users'),
  '/admin/jobs': adminTabPath('jobs'),
  '/admin/categories': adminTabPath('categories'),
  '/admin/reports': adminTabPath('flagged'),
};

export const ACCOUNT_ROUTES: RouteObject[] = [
  { path: 'forgot-password', element: <ForgotPasswordScreen /> },
  { path: 'terms-of-service', element: <TermsOfServiceScreen /> },
  { path: 'privacy-policy', element: <PrivacyPolicyScreen /> },
  {
    path: MESSAGES_PATH,
    element: (
      <RequireAccess signedOutTo="/sign-in" returnAfterSignIn>
        <ConversationsScreen />
      </RequireAccess>
    ),
  },
  {
    path: `${MESSAGES_PATH}/:conversationId`,
    element: (
      <RequireAccess signedOutTo="/sign-in" returnAfterSignIn>
        <ChatScreen />
      </RequireAccess>
    ),
  },
  // The spec lists /messages as a route without content of its own: it is the messages page.
  { path: 'messages', element: <Navigate to={MESSAGES_PATH} replace /> },
  { path: 'notifications', element: signedInOnly(<NotificationsScreen />) },
  { path: 'notification-settings', element: signedInOnly(<NotificationSettingsScreen />) },
  // An email's link: no sign-in, the signed token decides.
  { path: UNSUBSCRIBE_PATH.slice(1), element: <UnsubscribeScreen /> },
  {
    // Spec 2 §2: signed-out visitors sign in first; other roles go to /dashboard.
    path: 'worker-onboarding',
    element: (
      <RequireAccess roles={['worker']} signedOutTo="/sign-in" returnAfterSignIn deniedTo="/dashboard">
        <WorkerOnboardingScreen />
      </RequireAccess>
    ),
  },
  {
    // Signed-out visitors are told to sign in here rather than sent away (spec 2 §2 'My Earnings').
    path: EARNINGS_PATH,
    element: (
      <SignInRequired message={MSG.payments.signInForEarnings}>
        <RequireAccess roles={['worker']} signedOutTo="/sign-in" deniedTo="/dashboard" deniedMessage={MSG.auth.insufficientPermissions}>
          <WorkerEarningsScreen />
        </RequireAccess>
      </SignInRequired>
    ),
  },
  ...Object.entries(ADMIN_SECTION_TABS).map(([path, to]) => ({ path, element: <Navigate to={to} replace /> })),
];
