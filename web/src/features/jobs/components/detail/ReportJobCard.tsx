import { useId, useState } from 'react';
import { FLAG_TYPES, type FlagType } from '../../../../../../shared/admin';
import { MSG } from '../../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../../lib/api/client';
import { ReasonDialog } from '../../../../lib/components/ReasonDialog';
import { useApi } from '../../../../lib/api/useApi';
import { useToast } from '../../../../lib/toast/useToast';

const FLAG_LABEL: Record<FlagType, string> = {
  scam: 'Scam',
  spam: 'Spam',
  inappropriate: 'Inappropriate',
  off_platform_payment: 'Asks for payment outside the platform',
  other: 'Other',
};

/** 'Report this job' (DECISIONS.md "How a job gets flagged"): a type and a reason, once per user per job. */
export function ReportJobCard({ jobId }: { jobId: string }) {
  const api = useApi();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [reported, setReported] = useState(false);
  const [flagType, setFlagType] = useState<FlagType>('scam');
  const typeId = useId();

  async function submit(reason: string) {
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
        <ReasonDialog
          title={MSG.flags.reportThisJob}
          label="Reason"
          confirmLabel="Send report"
          missingReason={MSG.flags.reasonRequired}
          onConfirm={submit}
          onCancel={() => setOpen(false)}
        >
          <label htmlFor={typeId} className="field__label">
            What is wrong?
          </label>
          <select id={typeId} className="field__input" value={flagType} onChange={(event) => setFlagType(event.target.value as FlagType)}>
            {FLAG_TYPES.map((type) => (
              <option key={type} value={type}>
                {FLAG_LABEL[type]}
              </option>
            ))}
          </select>
        </ReasonDialog>
      ) : null}
    </section>
  );
}
