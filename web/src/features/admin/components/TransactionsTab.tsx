import { Badge, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { UNKNOWN_USER } from '../../../../../shared/admin';
import type { AdminPaymentRecord } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { adminTabPath } from '../../../lib/navigation';
import { useLiveReconnect, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { useToast } from '../../../lib/toast/useToast';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { LoadingState } from '../../../lib/components/LoadingState';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { MoneyDecisionsPanel } from './MoneyDecisionsPanel';
import { MoneyOverviewCard } from './MoneyOverviewCard';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { fetchJobPayments, fetchPayments } from '../api/fetch-payments';
import { useReversalPreview } from '../api/fetch-reversal-preview';
import { refundPayment, type ReversalConfirmation } from '../api/refund-payment';
import { useAdminPages } from '../hooks/useAdminPages';

/** Whether a payment was released to its worker (its transfer made): a refund must take it back first. */
const releasedToWorker = (payment: AdminPaymentRecord) => Boolean(payment.transferId && payment.workerId);

/**
 * Payments newest first (spec 2 §2), live: a change pushed by the server reloads the list. A
 * held payment is refunded; a released one only as a reversal the admin confirms, naming the
 * worker, the amount and what their balance can return of it (issue 34, issue 43). A payment
 * whose card's bank disputes it shows the chargeback, and cannot be refunded until it is decided.
 */
export default function TransactionsTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  // Opened from a paid job in the Jobs tab (`&job=`): that job's payment alone.
  const [params] = useSearchParams();
  const jobId = params.get('job');
  const payments = useAdminPages(jobId ? ADMIN_QUERY.jobPayments(jobId) : ADMIN_QUERY.payments, (client, cursor) =>
    jobId ? fetchJobPayments(client, jobId) : fetchPayments(client, cursor),
  );
  const [refunding, setRefunding] = useState<AdminPaymentRecord | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.payments });
    void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.moneyDecisions });
  };
  useLiveUpdates((message) => {
    if (message.type === 'payment.changed') refresh();
  });
  useLiveReconnect(refresh);

  async function refund(payment: AdminPaymentRecord, reason: string, reverse?: ReversalConfirmation) {
    try {
      await refundPayment(api, payment.id, reason, reverse);
      toast.success(MSG.payments.refunded);
      setRefunding(null);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.payments.refundFailed));
    } finally {
      refresh();
    }
  }

  return (
    <section aria-label="Transactions">
      <MoneyOverviewCard />
      <MoneyDecisionsPanel />
      {jobId ? (
        <p>
          One job's payment: refund it here, or <Link to={adminTabPath('transactions')}>show all payments</Link>.
        </p>
      ) : null}
      <TableStates
        what="transactions"
        query={payments}
        failedText={(reason) => MSG.admin.loadFailed('transactions', reason)}
        isEmpty={payments.rows.length === 0}
        emptyText={jobId ? 'This job has no payment.' : 'No payments yet.'}
      >
        <Table caption={jobId ? "The job's payment" : 'Payments, newest first'} highlightOnHover size="small">
          <TableHead>
            <TableRow>
              <TableCell as="th">Date</TableCell>
              <TableCell as="th">Job</TableCell>
              <TableCell as="th">Poster</TableCell>
              <TableCell as="th">Worker</TableCell>
              <TableCell as="th">Amount</TableCell>
              <TableCell as="th">Platform fee</TableCell>
              <TableCell as="th">Card fee</TableCell>
              <TableCell as="th">Status</TableCell>
              <TableCell as="th">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {payments.rows.map((payment) => (
              <TableRow key={payment.id}>
                <TableCell>{new Date(payment.createdAt).toLocaleString()}</TableCell>
                <TableCell>
                  <Link to={`/jobs/${payment.jobId}`}>{payment.jobTitle}</Link>
                  {payment.kind ? (
                    <>
                      {' '}
                      <Badge size="small">{payment.kind === 'tip' ? 'Tip' : 'Top-up'}</Badge>
                    </>
                  ) : null}
                </TableCell>
                <TableCell>{payment.posterName ?? UNKNOWN_USER}</TableCell>
                <TableCell>{payment.workerId ? (payment.workerName ?? UNKNOWN_USER) : 'Not assigned'}</TableCell>
                <TableCell>{formatCents(payment.amount)}</TableCell>
                <TableCell>{formatCents(payment.platformFee)}</TableCell>
                <TableCell>{formatCents(payment.stripeFee)}</TableCell>
                <TableCell>
                  <Badge size="small" variation={payment.status === 'refunded' ? 'warning' : 'success'}>
                    {payment.status}
                  </Badge>
                  {payment.chargeback ? (
                    <>
                      {' '}
                      <Badge size="small" variation={payment.chargeback.status === 'won' ? 'info' : 'error'}>
                        Chargeback {payment.chargeback.status}
                      </Badge>
                    </>
                  ) : null}
                </TableCell>
                <TableCell>
                  {payment.kind === 'tip' ? (
                    // A tip went to the worker in full: not refundable (docs/decisions/0147-tips-refunds-and-disputes.md).
                    ''
                  ) : payment.chargeback?.status === 'open' ? (
                    MSG.payments.chargebackOpenedTitle
                  ) : payment.status === 'succeeded' ? (
                    <Button size="small" variation="warning" onClick={() => setRefunding(payment)}>
                      {releasedToWorker(payment) ? 'Reverse & refund' : 'Refund'}
                      <span className="visually-hidden"> {payment.jobTitle}</span>
                    </Button>
                  ) : (
                    (payment.refundReason ?? '')
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableStates>
      {refunding && !releasedToWorker(refunding) ? <RefundDialog payment={refunding} onConfirm={(reason) => refund(refunding, reason)} onCancel={() => setRefunding(null)} /> : null}
      {refunding && releasedToWorker(refunding) ? (
        <ReversalDialog payment={refunding} onConfirm={(reason, reverse) => refund(refunding, reason, reverse)} onCancel={() => setRefunding(null)} />
      ) : null}
    </section>
  );
}

/** The refund's confirmation of held money. */
function RefundDialog({ payment, onConfirm, onCancel }: { payment: AdminPaymentRecord; onConfirm(reason: string): Promise<void>; onCancel(): void }) {
  const amount = payment.amount - (payment.refundedAmount ?? 0);
  return (
    <ReasonDialog
      title="Refund this payment?"
      label="Reason for the refund"
      confirmLabel={`Refund ${formatCents(amount)}`}
      missingReason={MSG.payments.refundReasonRequired}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        {formatCents(amount)} goes back to the poster of "{payment.jobTitle}" and the job is cancelled. This cannot be undone.
      </p>
    </ReasonDialog>
  );
}

/**
 * A refund after release (Wave 5): read fresh from Stripe when it opens, it says what the
 * worker's balance can still return of the transfer — a worker may have cashed it out — and
 * what would be the platform's loss and the worker's debt; the admin confirms exactly that.
 */
function ReversalDialog({ payment, onConfirm, onCancel }: { payment: AdminPaymentRecord; onConfirm(reason: string, reverse: ReversalConfirmation): Promise<void>; onCancel(): void }) {
  const preview = useReversalPreview(payment.id);
  const worker = payment.workerName ?? UNKNOWN_USER;
  if (!preview.data) {
    return (
      <ConfirmDialog title="Reverse the worker's payment and refund?" confirmLabel="Reverse" busy={preview.isPending} onConfirm={() => void preview.refetch()} onCancel={onCancel}>
        {preview.error ? <p role="alert">{apiErrorText(preview.error, MSG.payments.refundFailed)}</p> : <LoadingState label="Checking the worker's balance..." />}
      </ConfirmDialog>
    );
  }
  const { transferred, recoverable, unrecoverable, refund, workerId } = preview.data;
  return (
    <ReasonDialog
      title="Reverse the worker's payment and refund?"
      label="Reason for the refund"
      confirmLabel={recoverable > 0 ? `Reverse ${formatCents(recoverable)} from ${worker}` : `Refund without reversing`}
      missingReason={MSG.payments.refundReasonRequired}
      onConfirm={(reason) => onConfirm(reason, { workerId, amount: transferred, recover: recoverable })}
      onCancel={onCancel}
    >
      <p>
        The payment for "{payment.jobTitle}" was already released: {formatCents(transferred)} was transferred to <strong>{worker}</strong>.
      </p>
      <dl className="reversal-preview">
        <div>
          <dt>Taken back from {worker}'s balance</dt>
          <dd>{formatCents(recoverable)}</dd>
        </div>
        {unrecoverable > 0 ? (
          <div>
            <dt>Already cashed out: the platform's loss, owed by {worker}</dt>
            <dd>{formatCents(unrecoverable)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Refunded to the poster</dt>
          <dd>{formatCents(refund)}</dd>
        </div>
      </dl>
      <p>This cannot be undone.</p>
    </ReasonDialog>
  );
}
