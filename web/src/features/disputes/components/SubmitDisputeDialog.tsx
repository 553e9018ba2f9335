import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { useState } from 'react';
import type { JobSummary } from '../../../../../shared/api';
import { mayDispute } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import type { ApiClient } from '../../../lib/api/client';
import type { queryKeys } from '../../../lib/api/query-keys';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useModalDialog } from '../../../lib/hooks/useModalDialog';
import { FormField } from '../../../lib/components/FormField';
import { DisputeForm } from './DisputeForm';
import '../../../styles/disputes.css';

/**
 * How the dialog reads the user's own jobs: the jobs feature's query (ownJobsQueryOptions), handed
 * in by the dashboards, since the jobs feature imports this one (its job page shows the dispute card).
 */
export type OwnJobsQuery = (api: ApiClient) => UseQueryOptions<JobSummary[], Error, JobSummary[], typeof queryKeys.ownJobs>;

/**
 * The Submit Dispute button of both dashboards and its dialog (spec 2 §2): a selector of the
 * jobs the user may dispute (spec 2 §5), then the dispute form. The server decides again.
 */
export function SubmitDisputeDialog({ ownJobsQuery }: { ownJobsQuery: OwnJobsQuery }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {MSG.disputes.submitDispute}
      </button>
      {open ? <DisputeDialog ownJobsQuery={ownJobsQuery} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function DisputeDialog({ ownJobsQuery, onClose }: { ownJobsQuery: OwnJobsQuery; onClose(): void }) {
  const api = useApi();
  const { userId } = useAuth();
  const dialog = useModalDialog();
  const [jobId, setJobId] = useState('');
  const jobs = useQuery(ownJobsQuery(api));
  const disputable = (jobs.data ?? []).filter((job) => mayDispute(job, userId));

  return (
    <dialog
      ref={dialog}
      className="dialog dispute-dialog"
      aria-labelledby="submit-dispute-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="submit-dispute-title">{MSG.disputes.submitADispute}</h2>
      <DisputeForm
        jobId={jobId || null}
        onFiled={onClose}
        jobSelector={
          <FormField label="Job" hint={jobs.isSuccess && disputable.length === 0 ? MSG.disputes.cannotSubmit : undefined}>
            {(control) => (
              <select {...control} value={jobId} onChange={(event) => setJobId(event.target.value)}>
                <option value="">{jobs.isPending ? 'Loading your jobs...' : 'Choose a job'}</option>
                {disputable.map((job) => (
                  <option key={job.id} value={job.id}>
                    {job.title}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        }
      />
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
