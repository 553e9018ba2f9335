export { ApplicantList } from './components/ApplicantList';
export { ApplicationsTabLabel } from './components/ApplicationsTabLabel';
export { ApplyPanel } from './components/ApplyPanel';
export { useJobApplicants, useOwnApplication } from './hooks/useApplications';
export { ownApplicationQueryOptions } from './api/fetch-own-application';
