import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { disputeCenterPath, partyStatusLabel } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { useMyDisputes } from '../api/fetch-my-disputes';
import { useDisputeLiveUpdates } from '../hooks/useDisputes';
import { OPEN_DISPUTE_PARAM } from '../../../lib/navigation';
import { DisputeThreadView } from './DisputeThreadView';
import '../../../styles/disputes.css';

/**
 * The dispute communications panel of both dashboards (spec 2 §2): the user's disputes as
 * reporter or reported, newest first, each opening its thread. Shown only when there are any.
 * A dispute named in the URL (?dispute=, where its notification leads) starts open, in view.
 */
export function DisputesPanel() {
  const disputes = useMyDisputes();
  const [searchParams] = useSearchParams();
  const linkedId = searchParams.get(OPEN_DISPUTE_PARAM);
  const [openId, setOpenId] = useState<string | null>(linkedId);
  const linked = useRef<HTMLLIElement>(null);
  const [openedFor, setOpenedFor] = useState(linkedId);
  useDisputeLiveUpdates();
  // Another notification's link while the panel is shown opens that dispute instead.
  if (openedFor !== linkedId) {
    setOpenedFor(linkedId);
    setOpenId(linkedId);
  }
  const linkedShown = Boolean(disputes.data?.some((dispute) => dispute.id === linkedId));
  useEffect(() => {
    if (linkedShown) linked.current?.scrollIntoView({ block: 'start' });
  }, [linkedShown, linkedId]);

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
              <li key={dispute.id} className="card disputes-panel__item" ref={dispute.id === linkedId ? linked : undefined}>
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
                    <p>
                      <Link to={disputeCenterPath(dispute.jobId)}>{MSG.disputes.openDisputeCenter}</Link>
                    </p>
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
