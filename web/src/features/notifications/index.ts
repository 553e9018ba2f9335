export { loadNotificationsScreen, loadNotificationSettingsScreen, loadUnsubscribeScreen } from './routes';

export { NotificationBell } from './components/NotificationBell';
export { PreferencesForm } from './components/PreferencesForm';
