import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MSG } from '../../../shared/messages';
import { DisputesPanel } from '../components/disputes/DisputesPanel';
import { SubmitDisputeDialog } from '../components/disputes/SubmitDisputeDialog';
import { AcceptanceBanner } from '../components/jobs/AcceptanceBanner';
import { JobBoard } from '../components/jobs/JobBoard';
import { LocationBadge } from '../components/notifications/LocationBadge';
import { LocationPromptBanner } from '../components/notifications/LocationPromptBanner';
import { SavedJobsCard } from '../components/jobs/SavedJobsCard';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';
import { useSavedJobs } from '../hooks/useSavedJobs';
import { useStripeSetupReturn } from '../hooks/useStripeSetupReturn';

export default function WorkerDashboardScreen() {
  const { profile } = useAuth();
  const savedJobs = useSavedJobs(true);
  const { hash } = useLocation();
  useStripeSetupReturn(MSG.payments.workerSetupSuccess);

  // Links to /worker-dashboard#saved-jobs: the router does not scroll to fragments by itself,
  // and the card has its final height only once the list is in.
  useEffect(() => {
    if (hash === '#saved-jobs' && savedJobs.phase !== 'loading') document.getElementById('saved-jobs')?.scrollIntoView();
  }, [hash, savedJobs.phase]);

  return (
    <div className="page">
      <div className="page__header">
        <div>
          <PageHeading>Worker Dashboard</PageHeading>
          {profile ? <p className="page__lead">Welcome back, {profile.name}.</p> : null}
          <LocationBadge />
        </div>
        <div className="button-row">
          <SubmitDisputeDialog />
          <Link to="/dashboard" className="button">
            Find Jobs
          </Link>
        </div>
      </div>
      <LocationPromptBanner />
      <AcceptanceBanner />
      <div className="worker-dashboard">
        <section className="section-block" aria-labelledby="available-jobs-heading">
          <h2 id="available-jobs-heading">Available Jobs</h2>
          <JobBoard feed="personal" />
        </section>
        <SavedJobsCard savedJobs={savedJobs} />
      </div>
      <DisputesPanel />
    </div>
  );
}
