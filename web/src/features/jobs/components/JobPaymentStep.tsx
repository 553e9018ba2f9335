import { useState } from 'react';
import type { JobPaymentStart, JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { FormError } from '../../../lib/components/FormError';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { CardPaymentStep } from '../../payments';
import { confirmJobPayment } from '../api/confirm-job-payment';
import { PriceSummary } from './PriceSummary';

/**
 * The card step of posting (right after the form, or resumed from the draft's page): the cost,
 * the card, then the paid job is opened and handed to `onOpened`.
 */
export function JobPaymentStep({ draft, onOpened }: { draft: JobPaymentStart; onOpened(job: JobSummary): void }) {
  const api = useApi();
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);

  async function open() {
    try {
      const job = await confirmJobPayment(api, draft.payment.paymentIntentId);
      toast.success(MSG.jobs.posted);
      onOpened(job);
    } catch {
      setFailure(MSG.payments.paidButJobFailed);
      toast.error(MSG.payments.paidButJobFailed);
    }
  }

  return (
    <section className="payment-step" aria-labelledby="payment-step-heading">
      <h2 id="payment-step-heading">Pay to post “{draft.job.title}”</h2>
      <p className="page__lead">{MSG.payments.initiated}</p>
      <PriceSummary paymentCents={draft.job.payment} />
      {failure ? <FormError>{failure}</FormError> : null}
      <CardPaymentStep payment={draft.payment} onPaid={open} />
    </section>
  );
}
