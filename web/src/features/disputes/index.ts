export { loadDisputeCenterScreen } from './routes';

export { bulkResolveDisputes, fetchAdminDisputes, fetchResolutionTemplates, resolveDispute, setDisputePriority } from './api/dispute-endpoints';
export { DisputesPanel } from './components/DisputesPanel';
export { DisputeThreadView } from './components/DisputeThreadView';
export { SubmitDisputeDialog } from './components/SubmitDisputeDialog';
export { disputeKeys, useDisputeLiveUpdates } from './hooks/useDisputes';
