import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { AppNotification, JobDetail } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { OFFER_LABELS } from '../../../../../shared/offers';
import { ROLE_HOME } from '../../../../../shared/roles';
import { JOB_TAB_PARAM } from '../../../../../shared/app-paths';
import { mayDispute } from '../../../../../shared/disputes';
import { apiErrorText, isNotFound } from '../../../lib/api/client';
import { useJob } from '../api/fetch-job';
import { queryKeys } from '../../../lib/api/query-keys';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { EditJobPanel } from '../components/EditJobPanel';
import { PosterJobActions } from '../components/PosterJobActions';
import { JobPrice } from '../components/JobPrice';
import { SaveJobButton } from '../components/SaveJobButton';
import { ReportJobCard } from '../components/detail/ReportJobCard';
import { ApplicantList, ApplicationsTabLabel, ApplyPanel, useJobApplicants, useOwnApplication } from '../../applications';
import { MessagePosterLink } from '../../chat';
import { DisputeCenterCard } from '../../disputes';
import { CompletionReviewCard } from '../components/detail/CompletionReviewCard';
import { AutoReleaseStatus } from '../../../lib/components/AutoReleaseStatus';
import { canPerform } from '../../../../../shared/job-process';
import { AutoReleasePauseCard } from '../components/detail/AutoReleasePauseCard';
import { JobMoneyNotice } from '../components/detail/JobMoneyNotice';
import { AddressCard, JobFactsCard } from '../components/detail/JobFactsCard';
import { JobGallery } from '../components/detail/JobGallery';
import { JobNotice } from '../components/detail/JobNotice';
import { JobTabs } from '../components/detail/JobTabs';
import { MarkCompletedCard } from '../components/detail/MarkCompletedCard';
import { ResumePaymentCard } from '../components/detail/ResumePaymentCard';
import { TipCard } from '../components/detail/TipCard';
import { ProfileCard } from '../components/detail/ProfileCard';
import { ReviewCard, useRatedProfile } from '../../reviews';
import { SafetyTipsCard } from '../components/detail/SafetyTipsCard';
import { useAuth } from '../../../lib/auth/useAuth';
import { useEditingJob } from '../hooks/useEditingJob';
import { useLiveTopics, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { jobTopic } from '../../../../../shared/live';
import { useSavedJobs } from '../hooks/useSavedJobs';

/** Below the job's facts and actions, so its code loads after them (issue 45). */
const QuestionsCard = lazy(() => import('../components/detail/QuestionsCard'));
const PriceChangeCard = lazy(() => import('../components/detail/PriceChangeCard'));

export default function JobDetailScreen() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  // A pushed change reads the job again in place (the cache keeps showing it meanwhile), so
  // what is being typed on the page is not lost to a spinner.
  const job = useJob(id);
  // A worker's own application decides the panel at the top of the page (apply form, status or
  // nothing): read beside the job, the page appears whole instead of pushing its details down.
  const { profile } = useAuth();
  const isWorker = profile?.role === 'worker';
  const own = useOwnApplication(id, isWorker);
  const editing = useEditingJob();
  // The job and what hangs on it (applicants, the caller's application) share the job's key.
  const reloadJob = () => void queryClient.invalidateQueries({ queryKey: queryKeys.job(id) });

  if (job.isPending || (job.isSuccess && isWorker && own.application === undefined)) return <LoadingState label="Loading job..." />;
  if (job.isError) {
    if (isNotFound(job.error)) return <JobNotFound />;
    return (
      <div className="page">
        <PageHeading>Job</PageHeading>
        <EmptyState title={apiErrorText(job.error, MSG.backend.unexpected)}>
          <button type="button" className="button button--secondary" onClick={() => void job.refetch()}>
            Try again
          </button>
        </EmptyState>
      </div>
    );
  }
  return (
    <>
      {editing.jobId ? (
        <EditJobPanel
          jobId={editing.jobId}
          onSaved={() => {
            reloadJob();
            editing.stop();
          }}
          onClose={editing.stop}
        />
      ) : null}
      {/* Hidden, not unmounted, under 'Edit Job': a cancelled edit returns focus to its button. */}
      <div hidden={editing.jobId !== null}>
        <JobDetailView key={id} job={job.data} onEdit={() => editing.start(id)} onChanged={reloadJob} />
      </div>
    </>
  );
}

function JobNotFound() {
  return (
    <div className="page page--narrow page--centered">
      <PageHeading>{MSG.jobs.notFound}</PageHeading>
      <p>This job may have been removed or is no longer available.</p>
      <Link to="/" className="button">
        Back to Home
      </Link>
    </div>
  );
}

interface JobDetailViewProps {
  job: JobDetail;
  onEdit(): void;
  /** The job changed on the server (a lifecycle step, an unassign, a failed delete): read it again. */
  onChanged(): void;
}

function JobDetailView({ job, onEdit, onChanged }: JobDetailViewProps) {
  const { userId, profile } = useAuth();
  const navigate = useNavigate();
  // The open tab lives in the address: a new applicant's notification opens the applicants.
  const [searchParams, setSearchParams] = useSearchParams();
  const isOwner = job.posterId === userId;
  const isWorker = profile?.role === 'worker';
  const isAssignedWorker = job.workerId !== undefined && job.workerId === userId;
  const isAdmin = profile?.role === 'admin';
  const savedJobs = useSavedJobs(isWorker);
  const [notice, setNotice] = useState<AppNotification | null>(null);
  const applicants = useJobApplicants(job.id, isOwner);
  const own = useOwnApplication(job.id, isWorker && !isOwner);
  const worker = useRatedProfile(job.workerId ?? null);
  const workerProfile = worker.data ?? null;

  // The job itself is read again by the cache's live sync; the notice is this page's own.
  useLiveTopics([jobTopic(job.id)]);
  useLiveUpdates((message) => {
    if (message.type === 'notification' && message.notification.jobId === job.id) setNotice(message.notification);
  });

  const details = (
    <>
      <JobGallery job={job} />
      <JobFactsCard job={job} />
      <AddressCard job={job} />
    </>
  );

  return (
    <div className="page job-detail">
      <div className="job-detail__main">
        <header className="job-detail__header">
          <StatusBadge status={job.status} />
          <PageHeading>{job.title}</PageHeading>
          <p className="job-detail__location">{job.location}</p>
          {job.verifiedWorkersOnly ? <p className="job-detail__verified-only">{MSG.identity.verifiedOnly}</p> : null}
        {job.openToOffers && job.status === 'open' ? <p className="job-detail__offers">{OFFER_LABELS.openToOffers}</p> : null}
          <p className="job-detail__price">
            <JobPrice job={job} />
          </p>
          {isWorker ? <SaveJobButton job={job} savedJobs={savedJobs} /> : null}
          {isOwner ? (
            <PosterJobActions
              job={job}
              onEdit={onEdit}
              onChanged={onChanged}
              onDeleted={() => navigate(ROLE_HOME.poster)}
              onDeleteFailed={onChanged}
            />
          ) : null}
        </header>

        {isOwner && job.status === 'awaiting_payment' ? <ResumePaymentCard job={job} onOpened={onChanged} /> : null}
        {job.addressNotFound ? (
          <div className="notice notice--warning" role="status">
            <strong>{MSG.location.addressNotFound}</strong> {MSG.location.addressNotFoundHint}
          </div>
        ) : null}
        {notice ? <JobNotice notification={notice} onDismiss={() => setNotice(null)} /> : null}
        {isWorker && !isOwner ? <ApplyPanel job={job} own={own} onApplied={onChanged} /> : null}
        {isWorker && !isOwner ? <MessagePosterLink job={job} isAssignedWorker={isAssignedWorker} /> : null}
        {isAssignedWorker && job.status === 'assigned' ? <MarkCompletedCard job={job} onChanged={onChanged} /> : null}
        {job.workerId && (isOwner || isAssignedWorker || isAdmin) ? (
          <Suspense fallback={null}>
            <PriceChangeCard job={job} viewer={isOwner ? 'poster' : isAssignedWorker ? 'worker' : 'admin'} workerName={workerProfile?.name ?? 'The worker'} onChanged={onChanged} />
          </Suspense>
        ) : null}
        {isOwner || isAssignedWorker || isAdmin ? <JobMoneyNotice job={job} /> : null}
        {isOwner || isAssignedWorker ? <AutoReleaseStatus job={job} viewer={isOwner ? 'poster' : 'worker'} /> : null}
        {isOwner && canPerform('release', job) ? (
          <CompletionReviewCard job={job} workerName={workerProfile?.name ?? 'the worker'} onChanged={onChanged} />
        ) : null}
        {isOwner ? <AutoReleasePauseCard job={job} onChanged={onChanged} /> : null}
        {job.status === 'paid' && job.workerId && (isOwner || isAssignedWorker) ? (
          <TipCard job={job} viewer={isOwner ? 'poster' : 'worker'} workerName={workerProfile?.name ?? 'the worker'} onChanged={onChanged} />
        ) : null}
        {job.status === 'paid' && job.workerId && (isOwner || isAssignedWorker) ? (
          <ReviewCard
            jobId={job.id}
            reviewerId={userId ?? ''}
            revieweeId={isOwner ? job.workerId : job.posterId}
            revieweeName={(isOwner ? workerProfile?.name : job.poster?.name) ?? (isOwner ? 'the worker' : 'the poster')}
          />
        ) : null}

        {isOwner ? (
          <JobTabs
            label="Job sections"
            selected={searchParams.get(JOB_TAB_PARAM)}
            onSelect={(tab) =>
              setSearchParams(
                (current) => {
                  current.set(JOB_TAB_PARAM, tab);
                  return current;
                },
                { replace: true },
              )
            }
            tabs={[
              { id: 'details', label: 'Job Details', panel: details },
              {
                id: 'applications',
                label: <ApplicationsTabLabel query={applicants.query} />,
                panel: <ApplicantList job={job} applicants={applicants} onAccepted={onChanged} />,
              },
            ]}
          />
        ) : (
          details
        )}
        {userId ? (
          <Suspense fallback={<p className="muted">Loading questions...</p>}>
            <QuestionsCard job={job} />
          </Suspense>
        ) : null}
      </div>

      <aside className="job-detail__side" aria-label="About this job">
        <ProfileCard heading="Posted By" profile={job.poster} fallback={MSG.jobs.posterLabel} />
        {job.workerId ? (
          <ProfileCard heading="Assigned Worker" profile={workerProfile} fallback={worker.isPending ? 'Loading...' : 'Worker profile unavailable'} />
        ) : null}
        {mayDispute(job, userId) ? <DisputeCenterCard jobId={job.id} /> : null}
        <SafetyTipsCard />
        {!isOwner && profile?.role !== 'admin' ? <ReportJobCard jobId={job.id} /> : null}
      </aside>
    </div>
  );
}
