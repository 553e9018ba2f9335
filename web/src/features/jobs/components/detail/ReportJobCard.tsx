import { useState } from 'react';
import type { FlagType } from '../../../../../../shared/admin';
import { MSG } from '../../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../../lib/api/client';
import { useApi } from '../../../../lib/api/useApi';
import { useToast } from '../../../../lib/toast/useToast';
import { ReportDialog } from './ReportDialog';

/** 'Report this job' (DECISIONS.md "How a job gets flagged"): a type and a reason, once per user per job. */
export function ReportJobCard({ jobId }: { jobId: string }) {
  const api = useApi();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reported, setReported] = useState(false);

  async function submit(flagType: FlagType, reason: string) {
    try {
      await api.post(`/jobs/${encodeURIComponent(jobId)}/flags`, { flagType, reason });
      toast.success(MSG.flags.reported);
      setReported(true);
      setOpen(false);
    } catch (failure) {
      // Reported before (another tab): the answer is the same as a new report's.
      if (failure instanceof ApiRequestError && failure.status === 409) {
        setReported(true);
        setOpen(false);
      }
      toast.error(apiErrorText(failure, MSG.flags.reportFailed));
    }
  }

  return (
    <section className="card">
      {reported ? (
        <p>{MSG.flags.reported}</p>
      ) : (
        <button type="button" className="button button--small button--danger-outline" onClick={() => setOpen(true)}>
          {MSG.flags.reportThisJob}
        </button>
      )}
      {open ? (
        <ReportDialog title={MSG.flags.reportThisJob} onReport={submit} onCancel={() => setOpen(false)} />
      ) : null}
    </section>
  );
}
