export { ApplicantList } from './components/ApplicantList';
export { ApplicationsTabLabel } from './components/ApplicationsTabLabel';
export { ApplyPanel } from './components/ApplyPanel';
export { useJobApplicants, useOwnApplication } from './hooks/useApplications';
