import { Badge, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { UNKNOWN_USER, type AdminFlaggedJob } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { fetchPendingFlags } from '../api/fetch-pending-flags';
import { reviewFlags } from '../api/review-flags';
import { useAdminPages } from '../hooks/useAdminPages';

type Review = { flag: AdminFlaggedJob; decision: 'approved' | 'removed' };

/** A report on a job, or on one public question of it (issue 45): what deciding it does. */
const reviewDialogTitle = ({ flag, decision }: Review) =>
  flag.questionId ? (decision === 'approved' ? 'Keep this question?' : 'Remove this question?') : decision === 'approved' ? 'Keep this job listed?' : 'Remove this job?';

function reviewDialogText({ flag, decision }: Review): string {
  if (flag.questionId) {
    return decision === 'approved'
      ? `The question on "${flag.jobTitle}" stays and its reports are cleared for good.`
      : `The question is removed from "${flag.jobTitle}"; the job stays listed.`;
  }
  return decision === 'approved'
    ? `"${flag.jobTitle}" stays listed and its reports are cleared for good.`
    : `"${flag.jobTitle}" is cancelled, its payment refunded to the poster, and the poster is told why.`;
}

/** Pending reports newest first; approving keeps the job, removing cancels it (refunded, poster told why); a question's reports keep or remove the question. */
export default function FlaggedJobsTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const flags = useAdminPages(ADMIN_QUERY.flags, fetchPendingFlags);
  const [reviewing, setReviewing] = useState<Review | null>(null);

  async function review({ flag, decision }: Review, notes: string) {
    try {
      await reviewFlags(api, flag.jobId, decision, notes, flag.questionId);
      toast.success(MSG.admin.flagReviewed);
      setReviewing(null);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.backend.unexpected));
    } finally {
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    }
  }

  return (
    <section aria-label="Flagged Jobs">
      <TableStates
        what="flagged jobs"
        query={flags}
        failedText={(reason) => MSG.admin.loadFailed('flagged jobs', reason)}
        isEmpty={flags.rows.length === 0}
        emptyText="No reported jobs waiting for review."
      >
        <Table caption="Pending reports, newest first" highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Reported</TableCell>
              <TableCell as="th">Job</TableCell>
              <TableCell as="th">Type</TableCell>
              <TableCell as="th">Reason</TableCell>
              <TableCell as="th">By</TableCell>
              <TableCell as="th">Review</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {flags.rows.map((flag) => (
              <TableRow key={flag.id}>
                <TableCell>{new Date(flag.createdAt).toLocaleString()}</TableCell>
                <TableCell>
                  <Link to={`/jobs/${flag.jobId}`}>{flag.jobTitle}</Link>
                </TableCell>
                <TableCell>
                  <Badge size="small" variation="error">
                    {flag.flagType.replace(/_/g, ' ')}
                  </Badge>
                </TableCell>
                <TableCell>
                  {flag.questionId ? (
                    <>
                      <span className="muted">Question: </span>
                      <q className="preserve-lines">{flag.questionText}</q>
                      <br />
                    </>
                  ) : null}
                  {flag.reason}
                </TableCell>
                <TableCell>{flag.reporterId.startsWith('system') ? 'Automatic' : (flag.reporterName ?? UNKNOWN_USER)}</TableCell>
                <TableCell>
                  <div className="button-row">
                    <Button size="small" onClick={() => setReviewing({ flag, decision: 'approved' })}>
                      {flag.questionId ? 'Keep question' : 'Approve'}
                      <span className="visually-hidden"> {flag.jobTitle}</span>
                    </Button>
                    <Button size="small" variation="destructive" onClick={() => setReviewing({ flag, decision: 'removed' })}>
                      {flag.questionId ? 'Remove question' : 'Remove'}
                      <span className="visually-hidden"> {flag.jobTitle}</span>
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
      {reviewing ? (
        <ReasonDialog
          title={reviewDialogTitle(reviewing)}
          label={reviewing.decision === 'approved' ? 'Notes (optional)' : reviewing.flag.questionId ? 'Why it is removed (for the audit log)' : 'Why it is removed (sent to the poster)'}
          confirmLabel={reviewing.decision === 'approved' ? (reviewing.flag.questionId ? 'Keep question' : 'Approve') : reviewing.flag.questionId ? 'Remove question' : 'Remove job'}
          missingReason={MSG.admin.reviewNotesRequired}
          optional={reviewing.decision === 'approved'}
          onConfirm={(notes) => review(reviewing, notes)}
          onCancel={() => setReviewing(null)}
        >
          <p>{reviewDialogText(reviewing)}</p>
        </ReasonDialog>
      ) : null}
    </section>
  );
}
