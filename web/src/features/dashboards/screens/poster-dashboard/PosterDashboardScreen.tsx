import '../../../../styles/dashboards.css';
import { Link, useLocation } from 'react-router-dom';
import type { Dashboard, JobSummary } from '../../../../../../shared/api';
import { canPerform, type JobStatus } from '../../../../../../shared/job-process';
import { MSG } from '../../../../../../shared/messages';
import { Deferred } from '../../../../lib/components/Deferred';
import { LoadingState } from '../../../../lib/components/LoadingState';
import { PageHeading } from '../../../../lib/components/PageHeading';
import { DashboardFailed } from '../../components/DashboardFailed';
import { DashboardSection } from '../../components/DashboardSection';
import { EditJobPanel, JobHistory, OwnJobList, PosterJobStats, useEditingJob } from '../../../jobs';
import { ReviewsCard } from '../../../reviews';
import { useAuth } from '../../../../lib/auth/useAuth';
import { useDashboard } from '../../api/fetch-dashboard';
import { useDashboardCache } from '../../hooks/useDashboardCache';
import { useStripeSetupReturn } from '../../../payments';
import { PosterHeaderActions, PosterPanels } from './slots';
import { UnpaidDrafts } from './UnpaidDrafts';
import { WaitingForRelease } from './WaitingForRelease';

/** The status sections, in the order of a job's life (spec 2 §2 "Poster dashboard"). */
const SECTIONS: ReadonlyArray<{ status: Exclude<JobStatus, 'cancelled'>; title: string }> = [
  { status: 'open', title: 'Open' },
  { status: 'assigned', title: 'Assigned' },
  { status: 'completed', title: 'Completed' },
  { status: 'paid', title: 'Paid' },
];

/** The poster's dashboard: one call (GET /me/dashboard), kept current by live pushes. */
export default function PosterDashboardScreen() {
  const { profile } = useAuth();
  const dashboard = useDashboard();
  const cache = useDashboardCache();
  const editing = useEditingJob();
  useStripeSetupReturn(MSG.payments.setupReturned);

  return (
    <>
      {editing.jobId ? (
        <EditJobPanel
          jobId={editing.jobId}
          onSaved={(job) => {
            cache.update(job);
            editing.stop();
          }}
          onClose={editing.stop}
        />
      ) : null}
      {/* Hidden, not unmounted, under 'Edit Job': focus returns to the Edit button afterwards. */}
      <div className="page dashboard" hidden={editing.jobId !== null}>
        <div className="page__header">
          <div>
            <PageHeading>{profile ? `${profile.name} Dashboard` : 'Dashboard'}</PageHeading>
            <p className="page__lead">Post jobs, choose a worker, and pay when the work is done.</p>
          </div>
          <div className="dashboard__actions">
            <PosterHeaderActions />
            <Link to="/post-job" className="button">
              Post New Job
            </Link>
          </div>
        </div>
        {dashboard.isPending ? <LoadingState label="Loading your jobs..." /> : null}
        {dashboard.isError ? <DashboardFailed onRetry={() => void dashboard.refetch()} /> : null}
        {dashboard.data ? <PosterOverview dashboard={dashboard.data} onEdit={(job) => editing.start(job.id)} /> : null}
      </div>
    </>
  );
}

function PosterOverview({ dashboard, onEdit }: { dashboard: Dashboard; onEdit(job: JobSummary): void }) {
  const cache = useDashboardCache();
  const { jobs } = dashboard;
  const cancelled = jobs.filter((job) => job.status === 'cancelled');
  const { hash } = useLocation();
  const listProps = {
    onEdit,
    onChanged: cache.update,
    onDeleted: (job: JobSummary) => cache.remove(job.id),
    onDeleteFailed: () => void cache.reload(),
  };
  const section = ({ status, title }: (typeof SECTIONS)[number]) => {
    const inSection = jobs.filter((job) => job.status === status);
    return (
      <DashboardSection key={status} id={`${status}-jobs`} title={`${title} (${inSection.length})`}>
        {inSection.length ? <OwnJobList jobs={inSection} {...listProps} /> : <p className="muted">No {title.toLowerCase()} jobs.</p>}
      </DashboardSection>
    );
  };
  return (
    <>
      <UnpaidDrafts jobs={jobs.filter((job) => job.status === 'awaiting_payment')} />
      <WaitingForRelease jobs={jobs.filter((job) => job.status === 'completed' && canPerform('release', job))} />
      <PosterJobStats jobs={jobs} />
      <div className="dashboard__grid">
        <div className="dashboard__main">
          {SECTIONS.slice(0, 1).map(section)}
          {/* Below the first screenful: rendered after it (a link to one of its anchors renders it at once). */}
          <Deferred now={Boolean(hash)}>
            {SECTIONS.slice(1).map(section)}
            <DashboardSection id="job-history" title="Job History">
              {jobs.length ? <JobHistory jobs={jobs} /> : <p className="muted">You have not posted any jobs yet.</p>}
            </DashboardSection>
            {cancelled.length ? (
              <DashboardSection id="cancelled-jobs" title={`Cancelled (${cancelled.length})`}>
                <OwnJobList jobs={cancelled} {...listProps} />
              </DashboardSection>
            ) : null}
          </Deferred>
        </div>
        <div className="dashboard__panels">
          <Deferred now={Boolean(hash)}>
            <PosterPanels />
            <ReviewsCard
              id="my-reviews-heading"
              heading="Reviews About You"
              rating={dashboard.rating}
              reviewCount={dashboard.reviewCount}
              reviews={{ isPending: false, isError: false, data: dashboard.reviews.items, refetch: cache.reload }}
              emptyText="No reviews yet. Workers review you after you release their payment."
            />
          </Deferred>
        </div>
      </div>
    </>
  );
}
