import { useState, type FormEvent } from 'react';
import type { JobDetail } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { apiErrorText } from '../../../../lib/api/client';
import { declineCompletion } from '../../api/decline-completion';
import { releasePayment } from '../../api/release-payment';
import { FormField } from '../../../../lib/components/FormField';
import { useJobStep } from '../../hooks/useJobStep';

/** The poster's decision on a completed job: release the payment, or decline with feedback for the worker. */
export function CompletionReviewCard({ job, onChanged }: { job: JobDetail; onChanged(): void }) {
  const step = useJobStep(onChanged);
  const [reason, setReason] = useState('');

  function release() {
    void step.run((api) => releasePayment(api, job.id), MSG.payments.released, (error) => apiErrorText(error, MSG.payments.releaseFailed));
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
      <button type="button" className="button" disabled={step.busy} onClick={release}>
        Release Payment
      </button>
      <form className="decline-form" onSubmit={(event) => void decline(event)} noValidate>
        <FormField label="Reason for declining">
          {(control) => <textarea {...control} rows={3} maxLength={1000} value={reason} onChange={(event) => setReason(event.target.value)} />}
        </FormField>
        <button type="submit" className="button button--danger-outline" disabled={step.busy || reason.trim() === ''}>
          Decline Completion
        </button>
      </form>
    </section>
  );
}
