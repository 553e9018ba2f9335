import type { JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { completeJob } from '../api/complete-job';
import { useJobStep } from '../hooks/useJobStep';

/** The assigned worker's 'Mark as Completed' (job page and My Active Jobs), with the spec's toasts. */
export function MarkCompletedButton({ job, onChanged, describe }: { job: JobSummary; onChanged(): void; describe?: boolean }) {
  const step = useJobStep(onChanged);
  return (
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
      Mark as Completed{describe ? <span className="visually-hidden">: {job.title}</span> : null}
    </button>
  );
}
