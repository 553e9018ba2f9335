import { NavLink } from 'react-router-dom';
import { MESSAGES_PATH, unreadBadgeText } from '../../lib/navigation';

/** The header's Messages button with its unread badge (hidden at zero, '99+' above 99). */
export function MessagesLink({ unreadCount }: { unreadCount: number }) {
  const badge = unreadBadgeText(unreadCount);
  return (
    <NavLink to={MESSAGES_PATH} className="messages-link">
      <svg className="messages-link__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M4 4h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H9l-4.4 3.3A.4.4 0 0 1 4 20V5a1 1 0 0 1 1-1z"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      <span className="messages-link__label">Messages</span>
      {badge ? (
        <span className="badge-count">
          {badge}
          <span className="visually-hidden"> unread</span>
        </span>
      ) : null}
    </NavLink>
  );
}
