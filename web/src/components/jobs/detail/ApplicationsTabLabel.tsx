import type { ApplicationsOfJob } from '../../../../../shared/api';
import type { QueryResult } from '../../../hooks/useApiQuery';

/** 'Applications (count)' with the red 'N pending' mark while any wait for a decision. */
export function ApplicationsTabLabel({ query }: { query: QueryResult<ApplicationsOfJob> }) {
  if (query.status !== 'ready') return <>Applications</>;
  return (
    <>
      Applications ({query.data.total})
      {query.data.pending > 0 ? <span className="pending-mark"> {query.data.pending} pending</span> : null}
    </>
  );
}
