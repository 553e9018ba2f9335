import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { newestNotifications, NOTIFICATION_LIMITS } from '../../../../../shared/notifications';
import { useLiveNotifications, useMarkAllNotificationsRead, useNotificationList, useUnreadCount } from '../hooks/useNotifications';
import { useNow } from '../../../lib/hooks/useNow';
import { unreadBadgeText } from '../../../lib/navigation';
import { useDismissible } from '../../../lib/hooks/useDismissible';
import { NotificationEntry } from './NotificationEntry';

/**
 * The header's bell (spec 2 §2): the unread badge ('99+' past 99) and a panel of the 10
 * most recent with 'View all notifications'. It also keeps the notification cache live and
 * shows the arrival toasts, once for the whole signed-in app.
 */
export function NotificationBell() {
  useLiveNotifications();
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismissible(open, close, container, toggle);
  const unread = useUnreadCount();
  const list = useNotificationList();
  const markAll = useMarkAllNotificationsRead();
  const now = useNow(60_000);
  const count = unread.data ? (unread.data.capped ? NOTIFICATION_LIMITS.badgeCap + 1 : unread.data.count) : 0;
  const badge = unreadBadgeText(count);
  const latest = newestNotifications(list.data ?? []);

  return (
    <div className="notification-bell" ref={container}>
      <button
        ref={toggle}
        type="button"
        className="notification-bell__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={badge ? `Notifications, ${badge} unread` : 'Notifications'}
        onClick={() => setOpen((current) => !current)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2zM10 20a2 2 0 0 0 4 0" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
        </svg>
        {badge ? (
          <span className="badge-count" data-testid="notification-badge">
            {badge}
          </span>
        ) : null}
      </button>
      {open ? (
        <div id={panelId} className="notification-bell__panel" role="region" aria-label="Recent notifications">
          <div className="notification-bell__header">
            <h2>{MSG.notifications.title}</h2>
            {count > 0 ? (
              <button type="button" className="link-button" onClick={() => markAll.mutate()}>
                {MSG.notifications.markAllRead}
              </button>
            ) : null}
          </div>
          {list.isPending ? <p className="notification-bell__note">Loading…</p> : null}
          {list.data && latest.length === 0 ? <p className="notification-bell__note">{MSG.notifications.empty}</p> : null}
          <ul className="notification-bell__list">
            {latest.map((notification) => (
              <li key={notification.id}>
                <NotificationEntry notification={notification} now={now} onOpen={close} />
              </li>
            ))}
          </ul>
          <Link to="/notifications" className="notification-bell__all" onClick={close}>
            {MSG.notifications.viewAll}
          </Link>
        </div>
      ) : null}
    </div>
  );
}
