export { loadDisputeCenterScreen } from './routes';

export { DisputesPanel } from './components/DisputesPanel';
export { DisputeThreadView } from './components/DisputeThreadView';
export { SubmitDisputeDialog } from './components/SubmitDisputeDialog';
export { disputeKeys, useDisputeLiveUpdates } from './hooks/useDisputes';
