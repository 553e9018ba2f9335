import type { UseQueryResult } from '@tanstack/react-query';
import type { ApplicationsOfJob } from '../../../../../shared/api';

/** 'Applications (count)' with the red 'N pending' mark while any wait for a decision. */
export function ApplicationsTabLabel({ query }: { query: UseQueryResult<ApplicationsOfJob> }) {
  if (!query.isSuccess) return <>Applications</>;
  return (
    <>
      Applications ({query.data.total})
      {query.data.pending > 0 ? <span className="pending-mark"> {query.data.pending} pending</span> : null}
    </>
  );
}
