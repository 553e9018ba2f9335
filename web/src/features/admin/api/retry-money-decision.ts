import type { PendingMoneyDecision } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** The admin carries a pending money decision out now; answered as it ended (`settled`, `rolledBack`, or still `pending` with Stripe's error). */
export const retryMoneyDecision = (api: ApiClient, decisionId: string) =>
  api.post<PendingMoneyDecision & { status: 'pending' | 'settled' | 'rolledBack' }>(`/admin/money/decisions/${encodeURIComponent(decisionId)}/retry`, {});
