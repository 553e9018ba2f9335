import '@aws-amplify/ui-react/styles.css';
import '../admin.css';
import { Badge, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { AdminUserDetail, UserAction } from '../../../../../shared/admin';
import { IDENTITY_STATUS_LABELS } from '../../../../../shared/identity';
import { statusBadgeText } from '../../../../../shared/job-process';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { adminTabPath } from '../../../lib/navigation';
import { useToast } from '../../../lib/toast/useToast';
import { actOnUser } from '../api/act-on-user';
import { useAdminUser } from '../api/fetch-admin-user';

const when = (iso: string) => new Date(iso).toLocaleString();

/** One list of the user's page: a table that scrolls inside its card, or a line saying there is nothing. */
function UserSection({ title, empty, headings, rows }: { title: string; empty: string; headings: string[]; rows: Array<{ key: string; cells: ReactNode[] }> }) {
  return (
    <section className="card admin-user__section" aria-label={title}>
      <h2 className="admin-user__heading">{title}</h2>
      {rows.length === 0 ? (
        <p className="admin-user__empty">{empty}</p>
      ) : (
        // Focusable, so that a keyboard can scroll a table wider than a phone (axe: scrollable-region-focusable).
        <div className="admin-table" tabIndex={0} role="region" aria-label={`${title} table`}>
          <Table size="small" highlightOnHover>
            <TableHead>
              <TableRow>
                {headings.map((heading) => (
                  <TableCell as="th" key={heading}>
                    {heading}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.key}>
                  {row.cells.map((cell, i) => (
                    <TableCell key={headings[i]}>{cell}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}

const ACTION_TEXT: Record<UserAction, { button: string; title: (name: string) => string; confirm: string; explain: (detail: AdminUserDetail) => string }> = {
  suspend: {
    button: 'Suspend',
    title: (name) => `Suspend ${name}?`,
    confirm: 'Suspend user',
    explain: () =>
      'They are signed out everywhere and cannot sign in; their open pages stop updating. Their open jobs leave the job feed and search, and jobs in progress they are part of go to Flagged Jobs for your decision.',
  },
  reinstate: {
    button: 'Reinstate',
    title: (name) => `Reinstate ${name}?`,
    confirm: 'Reinstate user',
    explain: () => 'They can sign in again, and their open jobs are listed again.',
  },
  'password-reset': {
    button: 'Send password reset email',
    title: (name) => `Send ${name} a password reset email?`,
    confirm: 'Send email',
    explain: (detail) => `${detail.user.email} receives a code to choose a new password.`,
  },
  'identity-revocation': {
    button: 'Remove ID verification',
    title: (name) => `Remove ${name}'s ID verification?`,
    confirm: 'Remove verification',
    explain: () => 'The "ID verified" badge disappears everywhere at once, and jobs for ID-verified workers refuse their applications. They are told, and may verify again.',
  },
};

/** The admin's page about one user: who they are, everything they did on the platform, what the admin did about them, and the actions. */
export default function AdminUserScreen() {
  const { id = '' } = useParams();
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const detail = useAdminUser(id);
  const [acting, setActing] = useState<UserAction | null>(null);

  async function act(action: UserAction, reason: string, data: AdminUserDetail) {
    try {
      await actOnUser(api, id, action, reason);
      toast.success(
        action === 'suspend'
          ? MSG.admin.userSuspended(data.user.name)
          : action === 'reinstate'
            ? MSG.admin.userReinstated(data.user.name)
            : action === 'password-reset'
              ? MSG.admin.passwordResetSent(data.user.email)
              : MSG.identity.revoked(data.user.name),
      );
      setActing(null);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.admin.userActionFailed));
    } finally {
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    }
  }

  const back = (
    <Link to={adminTabPath('users')} className="button button--secondary">
      Back to users
    </Link>
  );

  if (detail.isPending) return <LoadingState label="Loading user..." />;
  if (detail.error) {
    return (
      <div className="page">
        <PageHeading>User</PageHeading>
        <div className="empty-state" role="alert">
          <p className="empty-state__title">{MSG.admin.userLoadFailed(apiErrorText(detail.error, 'the server did not answer'))}</p>
          <div className="button-row">
            <Button size="small" onClick={() => void detail.refetch()}>
              Try again
            </Button>
            {back}
          </div>
        </div>
      </div>
    );
  }

  const data = detail.data;
  const { user } = data;
  const suspended = user.accountStatus === 'suspended';
  const verified = user.identity?.status === 'verified';
  const actions: UserAction[] = user.role === 'admin' ? [] : [suspended ? 'reinstate' : 'suspend', 'password-reset', ...(verified ? (['identity-revocation'] as const) : [])];

  return (
    <div className="page admin-user">
      <div className="page__header">
        <div>
          <PageHeading title={`${user.name || user.email} · Admin`}>{user.name || user.email}</PageHeading>
          <p className="page__lead">
            {user.email} · {user.role} · joined {new Date(user.createdAt).toLocaleDateString()}{' '}
            <Badge size="small" variation={suspended ? 'error' : 'success'}>
              {suspended ? 'Suspended' : 'Active'}
            </Badge>{' '}
            <IdentityBadge verified={verified} />
          </p>
          {user.suspension ? (
            <p className="admin-user__suspension">
              Suspended {when(user.suspension.at)}: {user.suspension.reason}
            </p>
          ) : null}
          {user.emailStopped ? (
            <p className="admin-user__email-stopped">
              Email stopped: {user.emailStopped.reason} on {new Date(user.emailStopped.at).toLocaleDateString()}
            </p>
          ) : null}
        </div>
        <div className="button-row">
          {back}
          {actions.map((action) => (
            <Button key={action} size="small" variation={action === 'suspend' ? 'warning' : 'primary'} onClick={() => setActing(action)}>
              {ACTION_TEXT[action].button}
            </Button>
          ))}
        </div>
      </div>

      <section className="card admin-user__section" aria-label="Profile">
        <h2 className="admin-user__heading">Profile</h2>
        <dl className="admin-user__facts">
          <div>
            <dt>Rating</dt>
            <dd>{user.rating === null ? 'No reviews yet' : `${user.rating} (${user.reviewCount} reviews)`}</dd>
          </div>
          <div>
            <dt>Completed jobs</dt>
            <dd>{user.completedJobs}</dd>
          </div>
          <div>
            <dt>Location</dt>
            <dd>{user.location || '–'}</dd>
          </div>
          <div>
            <dt>Identity</dt>
            <dd>{user.identity ? `${IDENTITY_STATUS_LABELS[user.identity.status]}${user.identity.verifiedAt ? ` on ${new Date(user.identity.verifiedAt).toLocaleDateString()}` : ''}` : 'Not started'}</dd>
          </div>
          <div>
            <dt>Payment account</dt>
            <dd>
              {data.paymentAccount.connected ? data.paymentAccount.status.replace(/_/g, ' ') : 'Not connected'}
              {data.paymentAccount.connected ? ` · charges ${data.paymentAccount.chargesEnabled ? 'on' : 'off'} · payouts ${data.paymentAccount.payoutsEnabled ? 'on' : 'off'}` : ''}
            </dd>
          </div>
        </dl>
        {user.bio ? <p>{user.bio}</p> : null}
      </section>

      <UserSection
        title="Jobs posted"
        empty="No jobs posted."
        headings={['Job', 'Status', 'Payment', 'Posted']}
        rows={data.jobsPosted.map((job) => ({ key: job.id, cells: [<Link to={`/jobs/${job.id}`}>{job.title}</Link>, statusBadgeText(job.status), formatCents(job.payment), when(job.createdAt)] }))}
      />
      <UserSection
        title="Jobs worked"
        empty="No jobs worked."
        headings={['Job', 'Status', 'Payment', 'Posted']}
        rows={data.jobsWorked.map((job) => ({ key: job.id, cells: [<Link to={`/jobs/${job.id}`}>{job.title}</Link>, statusBadgeText(job.status), formatCents(job.payment), when(job.createdAt)] }))}
      />
      <UserSection
        title="Applications"
        empty="No applications."
        headings={['Job', 'Application', 'Applied']}
        rows={data.applications.map(({ application, job }) => ({
          key: application.id,
          cells: [<Link to={`/jobs/${job.id}`}>{job.title}</Link>, application.status, when(application.createdAt)],
        }))}
      />
      <UserSection
        title="Disputes"
        empty="No disputes."
        headings={['Job', 'Side', 'Type', 'Status', 'Filed']}
        rows={data.disputes.map((dispute) => ({
          key: dispute.id,
          cells: [dispute.jobTitle, dispute.reporterId === user.id ? 'Filed by them' : 'About them', dispute.type, dispute.status, when(dispute.createdAt)],
        }))}
      />
      <UserSection
        title="Reviews about them"
        empty="No reviews."
        headings={['Job', 'Rating', 'Comment', 'By']}
        rows={data.reviews.map(({ review, reviewer, jobTitle }) => ({
          key: review.id,
          cells: [jobTitle, `${review.rating} / 5`, review.comment ?? '–', reviewer?.name ?? '–'],
        }))}
      />
      <UserSection
        title="Payments"
        empty="No payments."
        headings={['Job', 'Amount', 'Status', 'Poster', 'Worker', 'When']}
        rows={data.payments.map((payment) => ({
          key: payment.id,
          cells: [payment.jobTitle, formatCents(payment.amount), payment.status, payment.posterName ?? '–', payment.workerName ?? '–', when(payment.createdAt)],
        }))}
      />
      <UserSection
        title="Audit trail"
        empty="No admin actions about this user."
        headings={['When', 'Action', 'Reason', 'By']}
        rows={data.auditTrail.map((entry) => ({
          key: entry.id,
          cells: [when(entry.createdAt), entry.actionType.replace(/_/g, ' '), entry.reason, entry.adminId === 'system' ? 'System' : 'Admin'],
        }))}
      />

      {acting ? (
        <ReasonDialog
          title={ACTION_TEXT[acting].title(user.name || user.email)}
          label="Reason"
          confirmLabel={ACTION_TEXT[acting].confirm}
          missingReason={MSG.admin.userActionReasonRequired}
          onConfirm={(reason) => act(acting, reason, data)}
          onCancel={() => setActing(null)}
        >
          <p>{ACTION_TEXT[acting].explain(data)}</p>
        </ReasonDialog>
      ) : null}
    </div>
  );
}
