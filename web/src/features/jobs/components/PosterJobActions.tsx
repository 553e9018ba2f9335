import { useState } from 'react';
import type { JobSummary } from '../../../../../shared/api';
import { canPerform } from '../../../../../shared/job-process';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText, type ApiClient } from '../../../lib/api/client';
import { cancelJob } from '../api/cancel-job';
import { deleteJob } from '../api/delete-job';
import { unassignJob } from '../api/unassign-job';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';

type ConfirmedAction = 'unassign' | 'cancel' | 'delete';

interface ActionText {
  button: string;
  question: string;
  explanation: string;
  confirm: string;
  success: string;
  failure(error: unknown): string;
}

/** What each action that needs a confirmation says (spec 1 §8 "Job toasts" for the toasts). */
const ACTION_TEXT: Record<ConfirmedAction, ActionText> = {
  unassign: {
    button: 'Unassign',
    question: 'Unassign the worker?',
    explanation: 'The worker is told, and the job is open for other workers again.',
    confirm: 'Unassign worker',
    success: MSG.jobs.unassigned,
    failure: (error) => apiErrorText(error, MSG.jobs.unassignFailed),
  },
  cancel: {
    button: 'Cancel Job',
    question: 'Cancel this job?',
    explanation: 'The assigned worker is released and the job is cancelled. This cannot be undone.',
    confirm: 'Cancel job',
    success: MSG.jobs.cancelled,
    failure: (error) => apiErrorText(error, MSG.jobs.cancelFailed),
  },
  delete: {
    button: 'Delete',
    question: 'Delete this job?',
    explanation: 'The job, its applications and its conversations are removed for good.',
    confirm: 'Delete job',
    success: MSG.jobs.deleted,
    failure: (error) => MSG.jobs.deleteFailed(apiErrorText(error, MSG.backend.unexpected)),
  },
};

const STATUS_CHANGES: Record<Exclude<ConfirmedAction, 'delete'>, (api: ApiClient, id: string) => Promise<JobSummary>> = {
  unassign: unassignJob,
  cancel: cancelJob,
};

interface PosterJobActionsProps {
  job: JobSummary;
  onEdit(): void;
  /** After an unassign or a cancel, with the job as it is now. */
  onChanged(job: JobSummary): void;
  onDeleted(): void;
  /** A failed delete: what is shown may be out of date, so it is read again. */
  onDeleteFailed(): void;
}

/** The owner's actions on a job, as its status permits (shared/job-process.ts), each confirmed first. */
export function PosterJobActions({ job, onEdit, onChanged, onDeleted, onDeleteFailed }: PosterJobActionsProps) {
  const api = useApi();
  const toast = useToast();
  const [confirming, setConfirming] = useState<ConfirmedAction | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmable = (['unassign', 'cancel', 'delete'] as const).filter((action) => canPerform(action, job));

  async function perform(action: ConfirmedAction) {
    const text = ACTION_TEXT[action];
    setBusy(true);
    try {
      if (action === 'delete') {
        await deleteJob(api, job.id);
        toast.success(text.success);
        onDeleted();
      } else {
        const updated = await STATUS_CHANGES[action](api, job.id);
        toast.success(text.success);
        onChanged(updated);
      }
    } catch (error) {
      toast.error(text.failure(error));
      if (action === 'delete') onDeleteFailed();
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  }

  if (!canPerform('edit', job) && confirmable.length === 0) return null;
  return (
    <div className="button-row">
      {canPerform('edit', job) ? (
        <button type="button" className="button button--small button--secondary" onClick={onEdit}>
          Edit<span className="visually-hidden"> {job.title}</span>
        </button>
      ) : null}
      {confirmable.map((action) => (
        <button
          key={action}
          type="button"
          className={`button button--small ${action === 'delete' ? 'button--danger-outline' : 'button--secondary'}`}
          onClick={() => setConfirming(action)}
        >
          {ACTION_TEXT[action].button}
          <span className="visually-hidden"> {job.title}</span>
        </button>
      ))}
      {confirming ? (
        <ConfirmDialog
          title={ACTION_TEXT[confirming].question}
          confirmLabel={ACTION_TEXT[confirming].confirm}
          cancelLabel="Keep it"
          busy={busy}
          onConfirm={() => void perform(confirming)}
          onCancel={() => setConfirming(null)}
        >
          <p>
            <strong>{job.title}</strong>
          </p>
          <p>{ACTION_TEXT[confirming].explanation}</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
