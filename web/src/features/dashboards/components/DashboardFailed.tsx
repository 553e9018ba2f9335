import { MSG } from '../../../../../shared/messages';
import { EmptyState } from '../../../lib/components/EmptyState';

/** The dashboard could not load: the spec's text and a retry. */
export function DashboardFailed({ onRetry }: { onRetry(): void }) {
  return (
    <EmptyState title={MSG.dashboard.loadFailed}>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>
    </EmptyState>
  );
}
