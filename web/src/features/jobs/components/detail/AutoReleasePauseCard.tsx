import { useState, type FormEvent } from 'react';
import type { PartyJob } from '../../../../../../shared/api';
import { canPerform } from '../../../../../../shared/job-process';
import { MSG } from '../../../../../../shared/messages';
import { apiErrorText } from '../../../../lib/api/client';
import { ConfirmDialog } from '../../../../lib/components/ConfirmDialog';
import { FormField } from '../../../../lib/components/FormField';
import { pauseAutoRelease } from '../../api/pause-auto-release';
import { resumeAutoRelease } from '../../api/resume-auto-release';
import { useJobStep } from '../../hooks/useJobStep';

/**
 * The poster's hold on a completed job's automatic release (DECISIONS.md "Wave 3"): pause the
 * countdown with a reason the worker sees, or resume it; each confirmed first. Shown only while
 * the process allows the step (a running countdown to pause, a paused one to resume).
 */
export function AutoReleasePauseCard({ job, onChanged }: { job: PartyJob; onChanged(): void }) {
  const step = useJobStep(onChanged);
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState<'pause' | 'resume' | null>(null);
  const mayPause = canPerform('pauseAutoRelease', job) && job.autoReleaseAt !== undefined && job.autoReleasePausedAt === undefined;
  const mayResume = canPerform('resumeAutoRelease', job) && job.autoReleasePausedAt !== undefined;
  if (!mayPause && !mayResume) return null;

  async function confirm() {
    const done =
      confirming === 'pause'
        ? await step.run((api) => pauseAutoRelease(api, job.id, reason.trim()), MSG.payments.autoReleasePausedTitle, (error) => apiErrorText(error, MSG.backend.unexpected))
        : await step.run((api) => resumeAutoRelease(api, job.id), MSG.payments.autoReleaseResumedTitle, (error) => apiErrorText(error, MSG.backend.unexpected));
    if (done) setReason('');
    setConfirming(null);
  }

  function askPause(event: FormEvent) {
    event.preventDefault();
    setConfirming('pause');
  }

  return (
    <section className="card" aria-labelledby="auto-release-hold-heading">
      <h2 id="auto-release-hold-heading">Automatic release</h2>
      {mayPause ? (
        <form className="decline-form" onSubmit={askPause} noValidate>
          <p>Need more time to check the work? Pause the automatic release; the worker sees your reason.</p>
          <FormField label="Reason for pausing">
            {(control) => <textarea {...control} rows={2} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </FormField>
          <button type="submit" className="button button--secondary" disabled={step.busy || reason.trim() === ''}>
            Pause Automatic Release
          </button>
        </form>
      ) : (
        <>
          <p>The payment is not released automatically while paused. Resume the countdown when you are ready.</p>
          <button type="button" className="button button--secondary" disabled={step.busy} onClick={() => setConfirming('resume')}>
            Resume Automatic Release
          </button>
        </>
      )}
      {confirming ? (
        <ConfirmDialog
          title={confirming === 'pause' ? 'Pause the automatic release?' : 'Resume the automatic release?'}
          confirmLabel={confirming === 'pause' ? 'Pause' : 'Resume'}
          cancelLabel="Not now"
          busy={step.busy}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(null)}
        >
          {confirming === 'pause' ? (
            <p>
              The payment is not released automatically until you resume. The worker is told: {MSG.payments.autoReleasePaused(reason.trim())}
            </p>
          ) : (
            <p>The countdown starts again: the payment is released to the worker automatically unless you release it, decline the completion or open a dispute before then.</p>
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
