import { useState } from 'react';
import type { JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { useRatedProfile } from '../../reviews';
import { completeJob } from '../api/complete-job';
import { useJobStep } from '../hooks/useJobStep';

/** The assigned worker's 'Mark as Completed' (job page and My Active Jobs), confirmed first, with the spec's toasts. */
export function MarkCompletedButton({ job, onChanged, describe }: { job: JobSummary; onChanged(): void; describe?: boolean }) {
  const step = useJobStep(onChanged);
  const [confirming, setConfirming] = useState(false);

  async function complete() {
    await step.run(
      (api) => completeJob(api, job.id),
      MSG.applications.markedCompleted,
      (error) => MSG.applications.completeFailed(apiErrorText(error, MSG.backend.unexpected)),
    );
    setConfirming(false);
  }

  return (
    <>
      <button type="button" className="button" disabled={step.busy} onClick={() => setConfirming(true)}>
        Mark as Completed{describe ? <span className="visually-hidden">: {job.title}</span> : null}
      </button>
      {confirming ? <CompleteDialog job={job} busy={step.busy} onConfirm={() => void complete()} onCancel={() => setConfirming(false)} /> : null}
    </>
  );
}

interface CompleteDialogProps {
  job: JobSummary;
  busy: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Names who reviews the work and what it pays, read when asked (the dashboard's jobs carry no poster name). */
function CompleteDialog({ job, busy, onConfirm, onCancel }: CompleteDialogProps) {
  const poster = useRatedProfile(job.posterId);
  const posterName = poster.data?.name ?? 'The poster';
  return (
    <ConfirmDialog title="Mark this job as completed?" confirmLabel="Mark completed" cancelLabel="Not yet" busy={busy} onConfirm={onConfirm} onCancel={onCancel}>
      <p>
        <strong>{job.title}</strong>
      </p>
      <p>
        {posterName} is asked to review the work and release your {formatCents(job.payment)}.
      </p>
    </ConfirmDialog>
  );
}
