import { statusBadgeText, type JobStatus } from '../../../../shared/job-process';

export function StatusBadge({ status }: { status: JobStatus }) {
  return <span className={`badge badge--${status}`}>{statusBadgeText(status)}</span>;
}
