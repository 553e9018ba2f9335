import { useNavigate } from 'react-router-dom';
import type { AppNotification } from '../../../../../shared/api';
import { URGENT_NOTIFICATION_TYPES } from '../../../../../shared/notifications';
import { useMarkNotificationRead } from '../hooks/useNotifications';
import { formatRelativeTime } from '../../../lib/format';
import { useAuth } from '../../../lib/auth/useAuth';
import { notificationTarget } from '../../../../../shared/notification-target';

/**
 * One notification as a button: opening it marks it read and goes to what it is about.
 * Unread and urgent ones are marked in text too, not by colour alone.
 */
export function NotificationEntry({ notification, now, onOpen }: { notification: AppNotification; now: number; onOpen?: () => void }) {
  const markRead = useMarkNotificationRead();
  const navigate = useNavigate();
  const { profile } = useAuth();
  const urgent = URGENT_NOTIFICATION_TYPES.includes(notification.type);
  const open = () => {
    if (!notification.read) markRead.mutate(notification.id);
    onOpen?.();
    void navigate(notificationTarget(notification, profile?.role));
  };
  return (
    <button
      type="button"
      className={`notification-entry${notification.read ? '' : ' notification-entry--unread'}${urgent ? ' notification-entry--urgent' : ''}`}
      onClick={open}
    >
      <span className="notification-entry__title">
        {notification.read ? null : <span className="visually-hidden">Unread: </span>}
        {urgent ? <span className="notification-entry__urgent">Action needed · </span> : null}
        {notification.title}
      </span>
      <span className="notification-entry__message">{notification.message}</span>
      <time className="notification-entry__time" dateTime={notification.createdAt}>
        {formatRelativeTime(notification.createdAt, now)}
      </time>
    </button>
  );
}
