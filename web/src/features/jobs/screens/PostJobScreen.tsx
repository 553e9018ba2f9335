import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { JobPaymentStart } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { EMPTY_JOB_FORM, type CreateJobRequest } from '../../../../../shared/schemas/job';
import { ApiRequestError } from '../../../lib/api/client';
import { confirmJobPayment } from '../api/confirm-job-payment';
import { createJob } from '../api/create-job';
import { FormError } from '../../../lib/components/FormError';
import { PageHeading } from '../../../lib/components/PageHeading';
import { JobForm } from '../components/JobForm';
import { PriceSummary } from '../components/PriceSummary';
import { CardPaymentStep, PaymentAccountNeeded, isPaymentSetupComplete, useStripeSetupReturn } from '../../payments';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';

export default function PostJobScreen() {
  const api = useApi();
  const { profile, refreshProfile } = useAuth();
  const [draft, setDraft] = useState<JobPaymentStart | null>(null);
  useStripeSetupReturn(MSG.payments.setupReturned);

  // Pay to post: the form saves a draft, which opens once its card payment has succeeded.
  async function post(request: CreateJobRequest) {
    try {
      setDraft(await createJob(api, request));
    } catch (error) {
      // The account changed since the profile was loaded: show the way to the payment settings.
      if (error instanceof ApiRequestError && error.status === 403) void refreshProfile();
      throw error;
    }
  }

  const accountReady = profile ? isPaymentSetupComplete(profile.paymentAccount) : false;
  return (
    <div className="page page--narrow">
      <PageHeading>Post a Job</PageHeading>
      {draft ? (
        <JobPaymentStep draft={draft} />
      ) : (
        <>
          <p className="page__lead">Describe the task, set a fixed payment, and local workers can apply.</p>
          {accountReady ? null : <PaymentAccountNeeded message={MSG.payments.accountNeededToPost} />}
          <JobForm
            initialValues={EMPTY_JOB_FORM}
            initialImages={[]}
            submitLabel="Post Job"
            savingLabel="Posting..."
            failureText={MSG.backend.unexpected}
            onSubmit={post}
          />
        </>
      )}
    </div>
  );
}

/** The card step of posting: the cost, the card, then the paid job is opened and shown. */
function JobPaymentStep({ draft }: { draft: JobPaymentStart }) {
  const api = useApi();
  const navigate = useNavigate();
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);

  async function open() {
    try {
      const job = await confirmJobPayment(api, draft.payment.paymentIntentId);
      toast.success(MSG.jobs.posted);
      navigate(`/jobs/${job.id}`);
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
