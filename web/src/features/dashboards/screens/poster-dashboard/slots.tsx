/**
 * Mount points of the poster dashboard for pieces other features own, each dropped in with a
 * one-line edit here; the screen's layout places them (spec 2 §2 "Poster dashboard").
 */
import { DisputesPanel, SubmitDisputeDialog } from '../../../disputes';
import { ownJobsQueryOptions } from '../../../jobs';

/** Header actions, beside 'Post New Job': the Submit Dispute dialog's button (disputes), the notification bell (notifications). */
export function PosterHeaderActions() {
  return <SubmitDisputeDialog ownJobsQuery={ownJobsQueryOptions} />;
}

/** The side panels column, above the reviews panel: the dispute communications panel (disputes). */
export function PosterPanels() {
  return <DisputesPanel />;
}
