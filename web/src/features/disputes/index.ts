export { loadDisputeCenterScreen } from './routes';

export { disputeKeys } from './api/dispute-keys';
export { DisputeCenterCard } from './components/DisputeCenterCard';
export { DisputeThreadView } from './components/DisputeThreadView';
export { DisputesPanel } from './components/DisputesPanel';
export { SubmitDisputeDialog } from './components/SubmitDisputeDialog';
export { useDisputeLiveUpdates } from './hooks/useDisputes';
