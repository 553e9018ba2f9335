import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { JobDetail } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../../lib/api/client';
import { LoadingState } from '../../../../lib/components/LoadingState';
import { readNavigationState } from '../../../../lib/navigation-state';
import { useJobPayment } from '../../api/fetch-job-payment';
import { JobPaymentStep } from '../JobPaymentStep';

/**
 * An unpaid draft on its poster's page: 'Complete payment' brings back the card step with the
 * draft's own PaymentIntent (a reload or a closed tab no longer loses it). Reached from the
 * dashboard's own 'Complete payment', it opens on the card step at once.
 */
export function ResumePaymentCard({ job, onOpened }: { job: JobDetail; onOpened(): void }) {
  const { state } = useLocation();
  const [resuming, setResuming] = useState(() => readNavigationState(state).resumePayment === true);
  return (
    <section className="card" aria-labelledby="resume-payment-heading">
      <h2 id="resume-payment-heading">This job is not posted yet</h2>
      {resuming ? (
        <ResumedPayment jobId={job.id} onOpened={onOpened} />
      ) : (
        <>
          <p>Workers see it once its payment succeeds. Unpaid drafts are removed after a day.</p>
          <button type="button" className="button" onClick={() => setResuming(true)}>
            Complete payment
          </button>
        </>
      )}
    </section>
  );
}

function ResumedPayment({ jobId, onOpened }: { jobId: string; onOpened(): void }) {
  const payment = useJobPayment(jobId);
  if (payment.isPending) return <LoadingState label="Loading the payment..." />;
  if (payment.isError) {
    // A 409: the draft was paid meanwhile (another tab, or the server just opened it), so the job is read again.
    const paidMeanwhile = payment.error instanceof ApiRequestError && payment.error.status === 409;
    return (
      <>
        <p className="field__error" role="alert">
          {apiErrorText(payment.error, MSG.backend.unexpected)}
        </p>
        <button type="button" className="button button--secondary" onClick={() => (paidMeanwhile ? onOpened() : void payment.refetch())}>
          Try again
        </button>
      </>
    );
  }
  return <JobPaymentStep draft={payment.data} onOpened={onOpened} />;
}
