import { useState } from 'react';
import { partyStatusLabel } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { useMyDisputes } from '../api/fetch-my-disputes';
import { useDisputeLiveUpdates } from '../hooks/useDisputes';
import { DisputeThreadView } from './DisputeThreadView';
import '../../../styles/disputes.css';

/**
 * The dispute communications panel of both dashboards (spec 2 §2): the user's disputes as
 * reporter or reported, newest first, each opening its thread. Shown only when there are any.
 */
export function DisputesPanel() {
  const disputes = useMyDisputes();
  const [openId, setOpenId] = useState<string | null>(null);
  useDisputeLiveUpdates();

  if (disputes.isPending || (disputes.data && disputes.data.length === 0)) return null;
  return (
    <section className="section-block disputes-panel" aria-labelledby="disputes-heading">
      <h2 id="disputes-heading">Disputes</h2>
      {disputes.isError ? (
        <p className="field__error">{MSG.disputes.failedToLoad}</p>
      ) : (
        <ul className="disputes-panel__list">
          {disputes.data.map((dispute) => {
            const expanded = openId === dispute.id;
            return (
              <li key={dispute.id} className="card disputes-panel__item">
                <button
                  type="button"
                  className="disputes-panel__toggle"
                  aria-expanded={expanded}
                  onClick={() => setOpenId(expanded ? null : dispute.id)}
                >
                  <span className="disputes-panel__title">{dispute.jobTitle}</span>
                  <span className="badge">{partyStatusLabel(dispute.status)}</span>
                  <span className="muted">
                    {dispute.type} · {new Date(dispute.createdAt).toLocaleDateString()}
                  </span>
                </button>
                {expanded ? (
                  <>
                    <p className="preserve-lines">{dispute.description}</p>
                    <DisputeThreadView disputeId={dispute.id} />
                  </>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
