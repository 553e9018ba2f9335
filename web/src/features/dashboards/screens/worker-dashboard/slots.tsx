/**
 * Mount points of the worker dashboard for pieces other features own, each dropped in with a
 * one-line edit here; the screen's layout places them (spec 2 §2 "Worker dashboard").
 */
import { DisputesPanel, SubmitDisputeDialog } from '../../../disputes';
import { ownJobsQueryOptions } from '../../../jobs';
import { LocationBadge, LocationPromptBanner } from '../../../location';

/** Header actions, beside 'Find Jobs': the location badge (notifications), Submit Dispute (disputes). */
export function WorkerHeaderActions() {
  return (
    <>
      <LocationBadge />
      <SubmitDisputeDialog ownJobsQuery={ownJobsQueryOptions} />
    </>
  );
}

/** Banners under the header, above the congratulations: the location prompt banner (notifications). */
export function WorkerBanners() {
  return <LocationPromptBanner />;
}

/** The side panels column, above the reviews panel: the dispute communications panel (disputes). */
export function WorkerPanels() {
  return <DisputesPanel />;
}
