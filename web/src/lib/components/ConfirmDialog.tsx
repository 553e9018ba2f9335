import { useId, type ReactNode } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The answer that changes nothing. */
  cancelLabel?: string;
  /** While the confirmed action runs: both buttons wait, Escape does nothing. */
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal question, open while mounted. The native modal <dialog> keeps focus inside and the
 * rest of the page inert; Escape cancels; closing returns focus to whatever opened it.
 * Cancel comes first, so the safe answer is the one focused on opening.
 */
export function ConfirmDialog({ title, children, confirmLabel, cancelLabel = 'Cancel', busy = false, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useModalDialog();
  const titleId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>
        {title}
      </h2>
      <div id={bodyId}>
        {children}
      </div>
      <div className="dialog__actions">
        <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm} disabled={busy}>
          {busy ? 'Working...' : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
