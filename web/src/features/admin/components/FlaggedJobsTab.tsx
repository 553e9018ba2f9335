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

/** Pending reports newest first; approving keeps the job, removing cancels it (refunded, poster told why). */
export default function FlaggedJobsTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const flags = useAdminPages(ADMIN_QUERY.flags, fetchPendingFlags);
  const [reviewing, setReviewing] = useState<Review | null>(null);

  async function review({ flag, decision }: Review, notes: string) {
    try {
      await reviewFlags(api, flag.jobId, decision, notes);
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
                <TableCell>{flag.reason}</TableCell>
                <TableCell>{flag.reporterId.startsWith('system') ? 'Automatic' : (flag.reporterName ?? UNKNOWN_USER)}</TableCell>
                <TableCell>
                  <div className="button-row">
                    <Button size="small" onClick={() => setReviewing({ flag, decision: 'approved' })}>
                      Approve<span className="visually-hidden"> {flag.jobTitle}</span>
                    </Button>
                    <Button size="small" variation="destructive" onClick={() => setReviewing({ flag, decision: 'removed' })}>
                      Remove<span className="visually-hidden"> {flag.jobTitle}</span>
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
          title={reviewing.decision === 'approved' ? 'Keep this job listed?' : 'Remove this job?'}
          label={reviewing.decision === 'approved' ? 'Notes (optional)' : 'Why it is removed (sent to the poster)'}
          confirmLabel={reviewing.decision === 'approved' ? 'Approve' : 'Remove job'}
          missingReason={MSG.admin.reviewNotesRequired}
          optional={reviewing.decision === 'approved'}
          onConfirm={(notes) => review(reviewing, notes)}
          onCancel={() => setReviewing(null)}
        >
          <p>
            {reviewing.decision === 'approved'
              ? `"${reviewing.flag.jobTitle}" stays listed and its reports are cleared for good.`
              : `"${reviewing.flag.jobTitle}" is cancelled, its payment refunded to the poster, and the poster is told why.`}
          </p>
        </ReasonDialog>
      ) : null}
    </section>
  );
}
