import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { JobSummary } from '../../../shared/api';
import type { JobStatus } from '../../../shared/job-states';
import { MSG } from '../../../shared/messages';
import { DisputesPanel } from '../components/disputes/DisputesPanel';
import { SubmitDisputeDialog } from '../components/disputes/SubmitDisputeDialog';
import { EmptyState } from '../components/EmptyState';
import { LoadingState } from '../components/LoadingState';
import { PageHeading } from '../components/PageHeading';
import { EditJobPanel } from '../components/jobs/EditJobPanel';
import { JobHistory } from '../components/jobs/JobHistory';
import { OwnJobList } from '../components/jobs/OwnJobList';
import { PosterJobStats } from '../components/jobs/PosterJobStats';
import { useAuth } from '../hooks/useAuth';
import { useEditingJob } from '../hooks/useEditingJob';
import { useOwnJobs, useOwnJobsCache } from '../hooks/useOwnJobs';
import { useStripeSetupReturn } from '../hooks/useStripeSetupReturn';

/** The status sections, in the order of a job's life (spec 2 §2 "Poster dashboard"). */
const SECTIONS: ReadonlyArray<{ status: Exclude<JobStatus, 'cancelled'>; title: string }> = [
  { status: 'open', title: 'Open' },
  { status: 'assigned', title: 'Assigned' },
  { status: 'completed', title: 'Completed' },
  { status: 'paid', title: 'Paid' },
];

export default function PosterDashboardScreen() {
  const { profile } = useAuth();
  const jobs = useOwnJobs();
  const cache = useOwnJobsCache();
  const editing = useEditingJob();
  useStripeSetupReturn(MSG.payments.setupReturned);

  return (
    <>
      {editing.jobId ? (
        <EditJobPanel
          jobId={editing.jobId}
          onSaved={(job) => {
            cache.upsert(job);
            editing.stop();
          }}
          onClose={editing.stop}
        />
      ) : null}
      {/* Hidden, not unmounted, under 'Edit Job': focus returns to the Edit button afterwards. */}
      <div className="page" hidden={editing.jobId !== null}>
        <div className="page__header">
          <div>
            <PageHeading>{profile ? `${profile.name} Dashboard` : 'Dashboard'}</PageHeading>
            <p className="page__lead">Post jobs, choose a worker, and pay when the work is done.</p>
          </div>
          <div className="button-row">
            <SubmitDisputeDialog />
            <Link to="/post-job" className="button">
              Post New Job
            </Link>
          </div>
        </div>
        <OwnJobsOverview jobs={jobs} onEdit={(job) => editing.start(job.id)} />
        <DisputesPanel />
      </div>
    </>
  );
}

function OwnJobsOverview({ jobs: query, onEdit }: { jobs: UseQueryResult<JobSummary[]>; onEdit(job: JobSummary): void }) {
  const cache = useOwnJobsCache();
  if (query.isPending) return <LoadingState label="Loading your jobs..." />;
  if (query.isError) {
    return (
      <EmptyState title={MSG.jobs.loadFailed}>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }

  const jobs = query.data;
  const cancelled = jobs.filter((job) => job.status === 'cancelled');
  const listProps = {
    onEdit,
    onChanged: cache.upsert,
    onDeleted: (job: JobSummary) => cache.remove(job.id),
    onDeleteFailed: () => void query.refetch(),
  };
  return (
    <>
      <PosterJobStats jobs={jobs} />
      {SECTIONS.map(({ status, title }) => {
        const inSection = jobs.filter((job) => job.status === status);
        return (
          <JobSection key={status} id={`${status}-jobs`} title={`${title} (${inSection.length})`}>
            {inSection.length ? <OwnJobList jobs={inSection} {...listProps} /> : <p className="muted">No {title.toLowerCase()} jobs.</p>}
          </JobSection>
        );
      })}
      <JobSection id="job-history" title="Job History">
        {jobs.length ? <JobHistory jobs={jobs} /> : <p className="muted">You have not posted any jobs yet.</p>}
      </JobSection>
      {cancelled.length ? (
        <JobSection id="cancelled-jobs" title={`Cancelled (${cancelled.length})`}>
          <OwnJobList jobs={cancelled} {...listProps} />
        </JobSection>
      ) : null}
    </>
  );
}

function JobSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} className="section-block" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
