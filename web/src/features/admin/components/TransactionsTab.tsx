import { Badge, Button, Table, TableBody, TableCell, TableHead, TableRow } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { UNKNOWN_USER } from '../../../../../shared/admin';
import type { AdminPaymentRecord } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useLiveReconnect, useLiveUpdates } from '../../../lib/live/useLiveUpdates';
import { useToast } from '../../../lib/toast/useToast';
import { ReasonDialog } from '../../../lib/components/ReasonDialog';
import { MoneyOverviewCard } from './MoneyOverviewCard';
import { TableStates } from './TableStates';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { fetchPayments } from '../api/fetch-payments';
import { refundPayment } from '../api/refund-payment';
import { useAdminPages } from '../hooks/useAdminPages';

/**
 * The worker's part of a payment already released to them (its transfer made), which a refund
 * must take back first; null for money still held.
 */
function releasedToWorker(payment: AdminPaymentRecord): { workerId: string; amount: number } | null {
  return payment.transferId && payment.workerId ? { workerId: payment.workerId, amount: payment.amount - payment.platformFee } : null;
}

/**
 * Payments newest first (spec 2 §2), live: a change pushed by the server reloads the list. A
 * held payment is refunded; a released one only as a reversal the admin confirms, naming the
 * worker and the amount taken back (issue 34).
 */
export default function TransactionsTab() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const payments = useAdminPages(ADMIN_QUERY.payments, fetchPayments);
  const [refunding, setRefunding] = useState<AdminPaymentRecord | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.payments });
  useLiveUpdates((message) => {
    if (message.type === 'payment.changed') refresh();
  });
  useLiveReconnect(refresh);

  async function refund(payment: AdminPaymentRecord, reason: string) {
    try {
      await refundPayment(api, payment.id, reason, releasedToWorker(payment) ?? undefined);
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
      <TableStates
        what="transactions"
        query={payments}
        failedText={(reason) => MSG.admin.loadFailed('transactions', reason)}
        isEmpty={payments.rows.length === 0}
        emptyText="No payments yet."
      >
        <Table caption="Payments, newest first" highlightOnHover size="small">
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
                  {payment.kind === 'tip' ? (
                    <>
                      {' '}
                      <Badge size="small">Tip</Badge>
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
                </TableCell>
                <TableCell>
                  {payment.kind === 'tip' ? (
                    // A tip went to the worker in full: not refundable (docs/decisions/0147-tips-refunds-and-disputes.md).
                    ''
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
      {refunding ? <RefundDialog payment={refunding} onConfirm={(reason) => refund(refunding, reason)} onCancel={() => setRefunding(null)} /> : null}
    </section>
  );
}

/** The refund's confirmation: of held money, or of a release, whose reversal names the worker and the amount taken back. */
function RefundDialog({ payment, onConfirm, onCancel }: { payment: AdminPaymentRecord; onConfirm(reason: string): Promise<void>; onCancel(): void }) {
  const released = releasedToWorker(payment);
  if (!released) {
    return (
      <ReasonDialog
        title="Refund this payment?"
        label="Reason for the refund"
        confirmLabel={`Refund ${formatCents(payment.amount)}`}
        missingReason={MSG.payments.refundReasonRequired}
        onConfirm={onConfirm}
        onCancel={onCancel}
      >
        <p>
          {formatCents(payment.amount)} goes back to the poster of "{payment.jobTitle}" and the job is cancelled. This cannot be undone.
        </p>
      </ReasonDialog>
    );
  }
  const worker = payment.workerName ?? UNKNOWN_USER;
  return (
    <ReasonDialog
      title="Reverse the worker's payment and refund?"
      label="Reason for the refund"
      confirmLabel={`Reverse ${formatCents(released.amount)} from ${worker}`}
      missingReason={MSG.payments.refundReasonRequired}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <p>
        The payment for "{payment.jobTitle}" was already released: {formatCents(released.amount)} was transferred to <strong>{worker}</strong>.
      </p>
      <p>
        That transfer of {formatCents(released.amount)} is reversed (taken back from {worker}) and {formatCents(payment.amount)} is refunded to the poster. This cannot be undone.
      </p>
    </ReasonDialog>
  );
}
