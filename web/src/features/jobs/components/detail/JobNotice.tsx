import type { AppNotification } from '../../../../../../shared/api';

/** The latest notification about this job that arrived while the page was open (a decline's feedback, a decision). */
export function JobNotice({ notification, onDismiss }: { notification: AppNotification; onDismiss(): void }) {
  return (
    <div className="notice notice--info job-notice" role="status">
      <div>
        <strong>{notification.title}</strong>
        <p className="preserve-lines">{notification.message}</p>
      </div>
      <button type="button" className="button button--small button--ghost" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
