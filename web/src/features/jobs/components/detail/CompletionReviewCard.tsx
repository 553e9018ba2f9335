import { useState, type FormEvent } from 'react';
import type { JobDetail } from '../../../../../../shared/api';
import { canPerform } from '../../../../../../shared/job-process';
import { MSG } from '../../../../../../shared/messages';
import { apiErrorText } from '../../../../lib/api/client';
import { declineCompletion } from '../../api/decline-completion';
import { releasePayment } from '../../api/release-payment';
import { formatCents } from '../../../../../../shared/money';
import { ConfirmDialog } from '../../../../lib/components/ConfirmDialog';
import { FormField } from '../../../../lib/components/FormField';
import { useJobStep } from '../../hooks/useJobStep';

/**
 * The poster's decision on a completed job whose money is held (shown only while the process
 * allows a release): release the payment (confirmed first, naming the amount and the worker),
 * or decline with feedback for the worker.
 */
export function CompletionReviewCard({ job, workerName, onChanged }: { job: JobDetail; workerName: string; onChanged(): void }) {
  const step = useJobStep(onChanged);
  const [reason, setReason] = useState('');
  const [confirmingRelease, setConfirmingRelease] = useState(false);
  const amount = formatCents(job.payment);

  async function release() {
    await step.run((api) => releasePayment(api, job.id), MSG.payments.released, (error) => apiErrorText(error, MSG.payments.releaseFailed));
    setConfirmingRelease(false);
  }

  async function decline(event: FormEvent) {
    event.preventDefault();
    const declined = await step.run(
      (api) => declineCompletion(api, job.id, reason),
      MSG.applications.completionDeclined,
      (error) => apiErrorText(error, MSG.backend.unexpected),
    );
    if (declined) setReason('');
  }

  return (
    <section className="card" aria-labelledby="completion-heading">
      <h2 id="completion-heading">The worker marked this job as completed</h2>
      <p>Check the work, then release the payment to the worker or tell them what is still missing.</p>
      <button type="button" className="button" disabled={step.busy} onClick={() => setConfirmingRelease(true)}>
        Release Payment
      </button>
      {confirmingRelease ? (
        <ConfirmDialog
          title="Release the payment?"
          confirmLabel={`Release ${amount}`}
          cancelLabel="Not yet"
          busy={step.busy}
          onConfirm={() => void release()}
          onCancel={() => setConfirmingRelease(false)}
        >
          <p>
            <strong>{job.title}</strong>
          </p>
          <p>
            {amount} goes to {workerName}. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {canPerform('declineCompletion', job) ? (
        <form className="decline-form" onSubmit={(event) => void decline(event)} noValidate>
          <FormField label="Reason for declining">
            {(control) => <textarea {...control} rows={3} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />}
          </FormField>
          <button type="submit" className="button button--danger-outline" disabled={step.busy || reason.trim() === ''}>
            Decline Completion
          </button>
        </form>
      ) : null}
    </section>
  );
}
