import { Badge, Button, SelectField, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_JOB_STATUSES } from '../../../../../shared/admin';
import type { PartyJob } from '../../../../../shared/api';
import { canPerform, statusBadgeText, type JobStatus } from '../../../../../shared/job-process';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { adminTabPath } from '../../../lib/navigation';
import { useToast } from '../../../lib/toast/useToast';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { EditReviewsDialog } from './EditReviewsDialog';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { adminCancelJob } from '../api/admin-cancel-job';
import { adminDeleteJob } from '../api/admin-delete-job';
import { adminReleasePayment } from '../api/admin-release-payment';
import { fetchAdminJobs } from '../api/fetch-admin-jobs';
import { useAdminPages } from '../hooks/useAdminPages';

type Moderation = { job: PartyJob; action: 'cancel' | 'delete' | 'release' };

const MODERATION_TEXT = {
  cancel: { title: 'Cancel this job?', confirm: 'Cancel job', label: 'Reason for cancelling', missing: MSG.admin.cancelReasonRequired, done: MSG.admin.jobCancelled, failed: MSG.admin.cancelFailed },
  delete: { title: 'Delete this job?', confirm: 'Delete job', label: 'Reason for deleting', missing: MSG.admin.deleteReasonRequired, done: MSG.admin.jobDeleted, failed: MSG.admin.deleteFailed },
  release: { title: 'Release the payment?', confirm: 'Release payment', label: 'Reason for releasing', missing: MSG.payments.releaseReasonRequired, done: MSG.payments.released, failed: MSG.payments.releaseFailed },
} as const;

const MODERATION_CALLS = { cancel: adminCancelJob, delete: adminDeleteJob, release: adminReleasePayment } as const;

/** Every job in one status, newest first; the admin cancels, deletes or (completed) releases any of them with a reason. */
export default function JobsTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<JobStatus>('open');
  const jobs = useAdminPages(ADMIN_QUERY.jobs(status), (client, cursor) => fetchAdminJobs(client, status, cursor));
  const [moderating, setModerating] = useState<Moderation | null>(null);
  const [reviewing, setReviewing] = useState<PartyJob | null>(null);

  async function moderate({ job, action }: Moderation, reason: string) {
    const text = MODERATION_TEXT[action];
    try {
      await MODERATION_CALLS[action](api, job.id, reason);
      toast.success(text.done);
      setModerating(null);
    } catch (error) {
      toast.error(apiErrorText(error, text.failed));
    } finally {
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    }
  }

  return (
    <section aria-label="Jobs">
      <SelectField label="Status" size="small" value={status} onChange={(event) => setStatus(event.target.value as JobStatus)} className="admin-filter">
        {ADMIN_JOB_STATUSES.map((option) => (
          <option key={option} value={option}>
            {statusBadgeText(option)}
          </option>
        ))}
      </SelectField>
      <TableStates
        what="jobs"
        query={jobs}
        failedText={(reason) => MSG.admin.loadFailed('jobs', reason)}
        isEmpty={jobs.rows.length === 0}
        emptyText={`No ${statusBadgeText(status).toLowerCase()} jobs.`}
      >
        <Table caption={`${statusBadgeText(status)} jobs, newest first`} highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Posted</TableCell>
              <TableCell as="th">Job</TableCell>
              <TableCell as="th">Location</TableCell>
              <TableCell as="th">Payment</TableCell>
              <TableCell as="th">Status</TableCell>
              <TableCell as="th">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {jobs.rows.map((job) => (
              <TableRow key={job.id}>
                <TableCell>{new Date(job.createdAt).toLocaleDateString()}</TableCell>
                <TableCell>
                  <Link to={`/jobs/${job.id}`}>{job.title}</Link>
                </TableCell>
                <TableCell>{job.location}</TableCell>
                <TableCell>{formatCents(job.payment)}</TableCell>
                <TableCell>
                  <Badge size="small">{statusBadgeText(job.status)}</Badge> <AutoReleaseMark job={job} />
                </TableCell>
                <TableCell>
                  <div className="button-row">
                    {job.status === 'paid' ? (
                      <Button size="small" onClick={() => setReviewing(job)}>
                        Reviews<span className="visually-hidden"> of {job.title}</span>
                      </Button>
                    ) : null}
                    {canPerform('release', job) ? (
                      <Button size="small" variation="primary" onClick={() => setModerating({ job, action: 'release' })}>
                        Release payment<span className="visually-hidden"> for {job.title}</span>
                      </Button>
                    ) : null}
                    {job.status === 'paid' ? (
                      // A paid job is not cancelled: its payment is reversed and refunded, from Transactions.
                      <Link className="amplify-button amplify-button--small" to={`${adminTabPath('transactions')}&${new URLSearchParams({ job: job.id })}`}>
                        Reverse &amp; refund<span className="visually-hidden"> {job.title}</span>
                      </Link>
                    ) : null}
                    {canPerform('adminCancel', job) ? (
                      <Button size="small" onClick={() => setModerating({ job, action: 'cancel' })}>
                        Cancel<span className="visually-hidden"> {job.title}</span>
                      </Button>
                    ) : null}
                    {canPerform('adminDelete', job) ? (
                      <Button size="small" variation="destructive" onClick={() => setModerating({ job, action: 'delete' })}>
                        Delete<span className="visually-hidden"> {job.title}</span>
                      </Button>
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
      {moderating ? (
        <ReasonDialog
          title={MODERATION_TEXT[moderating.action].title}
          label={MODERATION_TEXT[moderating.action].label}
          confirmLabel={MODERATION_TEXT[moderating.action].confirm}
          missingReason={MODERATION_TEXT[moderating.action].missing}
          onConfirm={(reason) => moderate(moderating, reason)}
          onCancel={() => setModerating(null)}
        >
          {moderating.action === 'release' ? (
            <p>
              {formatCents(moderating.job.payment)} goes to the worker of "{moderating.job.title}". This cannot be undone.
            </p>
          ) : (
            <p>
              "{moderating.job.title}": the poster is told your reason.{' '}
              {moderating.job.moneyState === 'held' ? `The poster's payment of ${formatCents(moderating.job.postedAmount)} is refunded in full.` : null}
            </p>
          )}
        </ReasonDialog>
      ) : null}
      {reviewing ? <EditReviewsDialog job={reviewing} onClose={() => setReviewing(null)} /> : null}
    </section>
  );
}

/** A completed job whose auto-release the poster paused, or that came due and could not pay the worker (issue 34). */
function AutoReleaseMark({ job }: { job: PartyJob }) {
  if (job.status !== 'completed' || !canPerform('release', job)) return null;
  if (job.autoReleaseBlockedAt) {
    return (
      <Badge size="small" variation="error">
        Auto-release blocked
      </Badge>
    );
  }
  if (job.autoReleasePausedAt) {
    return (
      <Badge size="small" variation="warning">
        Auto-release paused
      </Badge>
    );
  }
  return null;
}
