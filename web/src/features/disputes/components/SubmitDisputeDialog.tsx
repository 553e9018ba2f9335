import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { mayDispute } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';
import { fetchOwnJobs } from '../../jobs';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useModalDialog } from '../../../lib/hooks/useModalDialog';
import { FormField } from '../../../lib/components/FormField';
import { DisputeForm } from './DisputeForm';
import '../../../styles/disputes.css';

/**
 * The Submit Dispute button of both dashboards and its dialog (spec 2 §2): a selector of the
 * jobs the user may dispute (spec 2 §5), then the dispute form. The server decides again.
 */
export function SubmitDisputeDialog() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        {MSG.disputes.submitDispute}
      </button>
      {open ? <DisputeDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function DisputeDialog({ onClose }: { onClose(): void }) {
  const api = useApi();
  const { userId } = useAuth();
  const dialog = useModalDialog();
  const [jobId, setJobId] = useState('');
  const jobs = useQuery({ queryKey: ['jobs', 'mine'], queryFn: async () => (await fetchOwnJobs(api)).items });
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
