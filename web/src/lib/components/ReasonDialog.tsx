import { useId, useState, type ReactNode } from 'react';
import { ConfirmDialog } from './ConfirmDialog';

interface ReasonDialogProps {
  title: string;
  /** What the action does (e.g. the amount that will move), and any field asked before the reason. */
  children: ReactNode;
  label: string;
  confirmLabel: string;
  /** Shown when confirmed without a reason (the spec's text). */
  missingReason: string;
  /** Removing a reported job needs notes; approving does not. */
  optional?: boolean;
  onConfirm(reason: string): Promise<void>;
  onCancel(): void;
}

/** An action that needs a written reason (admin decisions, a report), confirmed in a modal before anything happens. */
export function ReasonDialog({ title, children, label, confirmLabel, missingReason, optional = false, onConfirm, onCancel }: ReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();

  async function confirm() {
    if (!optional && !reason.trim()) {
      setError(missingReason);
      return;
    }
    setBusy(true);
    try {
      await onConfirm(reason.trim());
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog title={title} confirmLabel={confirmLabel} busy={busy} onConfirm={() => void confirm()} onCancel={onCancel}>
      {children}
      <label htmlFor={fieldId} className="field__label">
        {label}
      </label>
      <textarea
        id={fieldId}
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
  );
}
