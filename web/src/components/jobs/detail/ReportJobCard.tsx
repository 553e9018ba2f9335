import { useId, useState } from 'react';
import { FLAG_TYPES, type FlagType } from '../../../../../shared/admin';
import { MSG } from '../../../../../shared/messages';
import { ApiRequestError, apiErrorText } from '../../../api/client';
import { ConfirmDialog } from '../../ConfirmDialog';
import { useApi } from '../../../hooks/useApi';
import { useToast } from '../../../hooks/useToast';

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
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const typeId = useId();
  const reasonId = useId();

  async function submit() {
    if (!reason.trim()) {
      setError(MSG.flags.reasonRequired);
      return;
    }
    setBusy(true);
    try {
      await api.post(`/jobs/${encodeURIComponent(jobId)}/flags`, { flagType, reason });
      toast.success(MSG.flags.reported);
      setReported(true);
      setOpen(false);
    } catch (failure) {
      if (failure instanceof ApiRequestError && failure.status === 409) {
        setReported(true);
        setOpen(false);
      }
      toast.error(apiErrorText(failure, MSG.flags.reportFailed));
    } finally {
      setBusy(false);
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
        <ConfirmDialog title={MSG.flags.reportThisJob} confirmLabel="Send report" busy={busy} onConfirm={() => void submit()} onCancel={() => setOpen(false)}>
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
          <label htmlFor={reasonId} className="field__label">
            Reason
          </label>
          <textarea
            id={reasonId}
            className="field__input"
            rows={3}
            maxLength={500}
            value={reason}
            aria-invalid={error ? true : undefined}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          {error ? (
            <p className="field__error" role="alert">
              {error}
            </p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
