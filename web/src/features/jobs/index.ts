export { jobDetailClientLoader, loadJobDetailScreen, loadPostJobScreen } from './routes';
export { savedJobsQueryOptions } from './api/fetch-saved-jobs';

export { useJob } from './api/fetch-job';
export { fetchOwnJobs, ownJobsQueryOptions, useOwnJobs } from './api/fetch-own-jobs';
export { AcceptanceBanner } from './components/AcceptanceBanner';
export { EditJobPanel } from './components/EditJobPanel';
export { JobBoard, JobBoardView, useJobBoard } from './components/JobBoard';
export { JobHistory } from './components/JobHistory';
export { JobPrice } from './components/JobPrice';
export { MarkCompletedButton } from './components/MarkCompletedButton';
export { OwnJobList } from './components/OwnJobList';
export { PosterJobStats } from './components/PosterJobStats';
export { SavedJobsCard } from './components/SavedJobsCard';
export { SavedSearchesCard } from './components/SavedSearchesCard';
export { useEditingJob } from './hooks/useEditingJob';
export { useLiveQuerySync } from './hooks/useLiveQuerySync';
export { useSavedJobs } from './hooks/useSavedJobs';
