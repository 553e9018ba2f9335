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
import type { ApiList } from '../hooks/useApiList';
import { useAuth } from '../hooks/useAuth';
import { useEditingJob } from '../hooks/useEditingJob';
import { useOwnJobs } from '../hooks/useOwnJobs';
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
  const editing = useEditingJob();
  useStripeSetupReturn(MSG.payments.setupReturned);

  return (
    <>
      {editing.jobId ? (
        <EditJobPanel
          jobId={editing.jobId}
          onSaved={(job) => {
            jobs.upsert(job);
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

function OwnJobsOverview({ jobs, onEdit }: { jobs: ApiList<JobSummary>; onEdit(job: JobSummary): void }) {
  if (jobs.phase === 'loading') return <LoadingState label="Loading your jobs..." />;
  if (jobs.phase === 'failed') {
    return (
      <EmptyState title={MSG.jobs.loadFailed}>
        <button type="button" className="button button--secondary" onClick={jobs.reload}>
          Try again
        </button>
      </EmptyState>
    );
  }

  const cancelled = jobs.items.filter((job) => job.status === 'cancelled');
  const listProps = {
    onEdit,
    onChanged: jobs.upsert,
    onDeleted: (job: JobSummary) => jobs.remove(job.id),
    onDeleteFailed: jobs.reload,
  };
  return (
    <>
      <PosterJobStats jobs={jobs.items} />
      {SECTIONS.map(({ status, title }) => {
        const inSection = jobs.items.filter((job) => job.status === status);
        return (
          <JobSection key={status} id={`${status}-jobs`} title={`${title} (${inSection.length})`}>
            {inSection.length ? <OwnJobList jobs={inSection} {...listProps} /> : <p className="muted">No {title.toLowerCase()} jobs.</p>}
          </JobSection>
        );
      })}
      <JobSection id="job-history" title="Job History">
        {jobs.items.length ? <JobHistory jobs={jobs.items} /> : <p className="muted">You have not posted any jobs yet.</p>}
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
