import '../../../../styles/dashboards.css';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { MSG } from '../../../../../../shared/messages';
import { formatCents } from '../../../../../../shared/money';
import { formatSuccessRate } from '../../../../lib/format';
import { WORKER_JOBS_PATH } from '../../../../lib/navigation';
import { Deferred } from '../../../../lib/components/Deferred';
import { LoadingState } from '../../../../lib/components/LoadingState';
import { PageHeading } from '../../../../lib/components/PageHeading';
import { DashboardFailed } from '../../components/DashboardFailed';
import { DashboardSection } from '../../components/DashboardSection';
import { StatTiles } from '../../components/StatTiles';
import { AcceptanceBanner, JobBoardView, useJobBoard, SavedJobsCard, useSavedJobs } from '../../../jobs';
import { ReviewsCard } from '../../../reviews';
import { useAuth } from '../../../../lib/auth/useAuth';
import { useDashboard } from '../../api/fetch-dashboard';
import { useDashboardCache } from '../../hooks/useDashboardCache';
import { useStripeSetupReturn } from '../../../payments';
import { ActiveJobsSection } from './ActiveJobsSection';
import { CompletedJobsSection } from './CompletedJobsSection';
import { WorkerBanners, WorkerHeaderActions, WorkerPanels } from './slots';

/**
 * The worker's dashboard (spec 2 §2): three calls on entry (GET /me/dashboard, the open-jobs
 * feed, the saved jobs), then kept current by live pushes instead of polling.
 */
export default function WorkerDashboardScreen() {
  const { profile } = useAuth();
  const dashboard = useDashboard();
  const board = useJobBoard('personal');
  const savedJobs = useSavedJobs(true);
  const cache = useDashboardCache();
  const { hash, key } = useLocation();
  useStripeSetupReturn(MSG.payments.workerSetupSuccess);

  // Links to /worker-dashboard#saved-jobs or #available-jobs (Find Jobs): the router does not
  // scroll to fragments by itself, and the sections have their final heights only once their
  // lists are in. Following the same link again (a new location key) scrolls again.
  const settled = !savedJobs.query.isPending && !dashboard.isPending && board.view.phase !== 'loading';
  useEffect(() => {
    if (hash && settled) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, key, settled]);

  const jobs = dashboard.data?.jobs ?? [];
  const active = jobs.filter((job) => job.status === 'assigned' || job.status === 'completed');
  const completed = jobs.filter((job) => job.status === 'paid');
  const { view } = board;
  const available = view.phase === 'ready' ? `${view.jobs.length}${view.hasMore ? '+' : ''}` : '…';

  return (
    <div className="page dashboard">
      <div className="page__header">
        <div>
          <PageHeading>Worker Dashboard</PageHeading>
          {profile ? <p className="page__lead">Welcome back, {profile.name}.</p> : null}
        </div>
        <div className="dashboard__actions">
          <WorkerHeaderActions />
          <Link to={WORKER_JOBS_PATH} className="button">
            Find Jobs
          </Link>
        </div>
      </div>
      <WorkerBanners />
      {/*
        What the dashboard read decides (the congratulations, the numbers, the jobs) appears at once
        when it arrives, as on the poster's dashboard: arriving piece by piece it pushed the
        sections below down.
      */}
      {dashboard.isPending ? (
        <LoadingState label="Loading your jobs..." />
      ) : (
        <>
          <AcceptanceBanner jobs={jobs} />
          {dashboard.data ? (
            <StatTiles
              label="Your work at a glance"
              tiles={[
                { label: 'Available Jobs', value: available },
                { label: 'Active Jobs', value: active.length },
                { label: 'Completed Jobs', value: completed.length },
                { label: 'Total Earnings', value: formatCents(dashboard.data.totalEarnings) },
                { label: 'Success Rate', value: formatSuccessRate(dashboard.data.successRate) },
              ]}
            />
          ) : null}
          <div className="dashboard__grid">
            <div className="dashboard__main">
              <DashboardSection id="active-jobs" title="My Active Jobs">
                {dashboard.isError ? <DashboardFailed onRetry={() => void dashboard.refetch()} /> : null}
                {dashboard.data ? <ActiveJobsSection jobs={active} onChanged={() => void cache.reload()} /> : null}
              </DashboardSection>
              {/* Below the first screenful: rendered after it (a link to one of its anchors renders it at once). */}
              <Deferred now={Boolean(hash)}>
                <DashboardSection id="available-jobs" title="Available Jobs">
                  <JobBoardView board={board} />
                </DashboardSection>
                <DashboardSection id="completed-jobs" title="Completed Jobs">
                  {dashboard.data ? <CompletedJobsSection jobs={completed} /> : null}
                </DashboardSection>
              </Deferred>
            </div>
            <div className="dashboard__panels">
              <Deferred now={Boolean(hash)}>
                <SavedJobsCard savedJobs={savedJobs} />
                <WorkerPanels />
                <ReviewsCard
                  id="my-reviews-heading"
                  heading="Reviews About You"
                  rating={dashboard.data?.rating ?? null}
                  reviewCount={dashboard.data?.reviewCount ?? 0}
                  reviews={{ isPending: dashboard.isPending, isError: dashboard.isError, data: dashboard.data?.reviews.items, refetch: dashboard.refetch }}
                  emptyText="No reviews yet. Posters review you after they release a payment."
                />
              </Deferred>
            </div>
          </div>
        </>
      )}
    </div>
  );
}
