import type { JobDetail } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../api/client';
import { completeJob } from '../../../api/endpoints';
import { useJobStep } from './useJobStep';

/** The assigned worker reports the work done; the poster then reviews it and releases payment. */
export function MarkCompletedCard({ job, onChanged }: { job: JobDetail; onChanged(): void }) {
  const step = useJobStep(onChanged);
  return (
    <section className="card" aria-labelledby="complete-heading">
      <h2 id="complete-heading">Finished the work?</h2>
      <p>Mark the job as completed and the poster is asked to review it and release your payment.</p>
      <button
        type="button"
        className="button"
        disabled={step.busy}
        onClick={() =>
          void step.run(
            (api) => completeJob(api, job.id),
            MSG.applications.markedCompleted,
            (error) => MSG.applications.completeFailed(apiErrorText(error, MSG.backend.unexpected)),
          )
        }
      >
        Mark as Completed
      </button>
    </section>
  );
}
