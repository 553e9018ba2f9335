import type { JobDetail } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { MarkCompletedButton } from '../MarkCompletedButton';

/** The assigned worker reports the work done; the poster then reviews it and releases payment. */
export function MarkCompletedCard({ job, onChanged }: { job: JobDetail; onChanged(): void }) {
  return (
    <section className="card" aria-labelledby="complete-heading">
      <h2 id="complete-heading">Finished the work?</h2>
      {/* A declined completion comes back with the poster's reason: what to fix before trying again. */}
      {job.declineReason ? (
        <p className="notice notice--warning" role="status">
          {MSG.dashboard.declinedCompletion(job.declineReason)}
        </p>
      ) : null}
      <p>Mark the job as completed and the poster is asked to review it and release your payment.</p>
      <MarkCompletedButton job={job} onChanged={onChanged} />
    </section>
  );
}
