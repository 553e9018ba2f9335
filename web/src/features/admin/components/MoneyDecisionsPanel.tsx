import { Button } from '@aws-amplify/ui-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PendingMoneyDecision } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { ADMIN_QUERY } from '../api/admin-query-keys';
import { useMoneyDecisions } from '../api/fetch-money-decisions';
import { retryMoneyDecision } from '../api/retry-money-decision';

/** What each decision is, in words. */
const ACTION_NAMES: Record<string, string> = {
  release: 'Release',
  refund: 'Refund',
  split: 'Dispute split',
  reverse: 'Reversal and refund',
  reprice: "An accepted offer's difference refunded",
  priceChange: "A lower price's difference refunded",
  topUp: "A higher price's difference charged",
  topUpRefund: 'A late price-change charge refunded',
  void: "A removed draft's payment",
  tipCharge: 'Tip charge',
  tipTransfer: 'Tip transfer',
  tipRefund: 'Tip refund',
  payout: 'Instant payout',
};

/**
 * Money decisions still waiting for their Stripe calls (issue 43): each with what it is, since
 * when, how often it was tried and Stripe's last answer, and a retry. The schedule retries them
 * every few minutes and an alarm fires on the old ones; nothing shows while none waits.
 */
export function MoneyDecisionsPanel() {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const decisions = useMoneyDecisions();
  const [retrying, setRetrying] = useState<string | null>(null);
  if (decisions.isPending || decisions.error || decisions.data.length === 0) return null;

  async function retry(decision: PendingMoneyDecision) {
    setRetrying(decision.id);
    try {
      const ended = await retryMoneyDecision(api, decision.id);
      if (ended.status === 'pending') toast.error(MSG.admin.decisionStillPending(ended.lastError ?? MSG.payments.unavailable));
      else toast.success(MSG.admin.decisionRetried);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.payments.unavailable));
    } finally {
      setRetrying(null);
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.moneyDecisions });
      void queryClient.invalidateQueries({ queryKey: ADMIN_QUERY.payments });
    }
  }

  return (
    <section className="card money-decisions" aria-labelledby="money-decisions-heading">
      <h2 id="money-decisions-heading">Money decisions waiting for Stripe</h2>
      <p className="muted">Decided and written, not yet carried out at Stripe. They are retried every few minutes; an alarm fires when one waits too long.</p>
      <ul className="money-decisions__list">
        {decisions.data.map((decision) => (
          <li key={decision.id} className="money-decisions__item">
            <div>
              <strong>{ACTION_NAMES[decision.action] ?? decision.action}</strong> of {formatCents(decision.amount)} —{' '}
              {decision.jobId ? <Link to={`/jobs/${decision.jobId}`}>{decision.label}</Link> : decision.label}
              <br />
              <span className="muted">
                Since {new Date(decision.decidedAt).toLocaleString()}, tried {decision.attempts} {decision.attempts === 1 ? 'time' : 'times'}
                {decision.lastError ? `. Stripe: ${decision.lastError}` : ''}
              </span>
            </div>
            <Button size="small" isLoading={retrying === decision.id} loadingText="Retrying..." onClick={() => void retry(decision)}>
              Retry now<span className="visually-hidden"> {decision.label}</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
