/**
 * Mount points of the worker dashboard for pieces other features own, each dropped in with a
 * one-line edit here; the screen's layout places them (spec 2 §2 "Worker dashboard").
 */
import { DisputesPanel } from '../../../disputes/components/DisputesPanel';
import { SubmitDisputeDialog } from '../../../disputes/components/SubmitDisputeDialog';
import { LocationBadge } from '../../../location/components/LocationBadge';
import { LocationPromptBanner } from '../../../location/components/LocationPromptBanner';

/** Header actions, beside 'Find Jobs': the location badge (notifications), Submit Dispute (disputes). */
export function WorkerHeaderActions() {
  return (
    <>
      <LocationBadge />
      <SubmitDisputeDialog />
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
