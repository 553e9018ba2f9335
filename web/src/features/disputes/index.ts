export { loadDisputeCenterScreen } from './routes';

export { DisputesPanel } from './components/DisputesPanel';
export { DisputeThreadView } from './components/DisputeThreadView';
export { SubmitDisputeDialog } from './components/SubmitDisputeDialog';
export { disputeKeys } from './api/dispute-keys';
export { useDisputeLiveUpdates } from './hooks/useDisputes';
