import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { JobPaymentStart } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { EMPTY_JOB_FORM, type CreateJobRequest } from '../../../../../shared/schemas/job';
import { ApiRequestError } from '../../../lib/api/client';
import { createJob } from '../api/create-job';
import { paymentStartError } from '../payment-start-errors';
import { PageHeading } from '../../../lib/components/PageHeading';
import { JobForm } from '../components/JobForm';
import { JobPaymentStep } from '../components/JobPaymentStep';
import { PaymentAccountNeeded, isPaymentSetupComplete, useStripeSetupReturn } from '../../payments';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';

export default function PostJobScreen() {
  const api = useApi();
  const navigate = useNavigate();
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
      throw paymentStartError(error);
    }
  }

  const accountReady = profile ? isPaymentSetupComplete(profile.paymentAccount) : false;
  return (
    <div className="page page--narrow">
      <PageHeading>Post a Job</PageHeading>
      {draft ? (
        <JobPaymentStep draft={draft} onOpened={(job) => navigate(`/jobs/${job.id}`)} />
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
