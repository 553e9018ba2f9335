export type ToastKind = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

interface ToastRegionProps {
  toasts: Toast[];
  onDismiss(id: number): void;
}

/**
 * The live regions stay mounted so screen readers announce what is added to them: errors
 * assertively, everything else politely.
 */
export function ToastRegion({ toasts, onDismiss }: ToastRegionProps) {
  const errors = toasts.filter((toast) => toast.kind === 'error');
  const others = toasts.filter((toast) => toast.kind !== 'error');
  return (
    <div className="toast-stack">
      <div role="alert" aria-live="assertive" className="toast-list">
        {errors.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </div>
      <div role="status" aria-live="polite" className="toast-list">
        {others.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={onDismiss} />
        ))}
      </div>
    </div>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss(id: number): void }) {
  return (
    <div className={`toast toast--${toast.kind}`}>
      <p className="toast__text">{toast.text}</p>
      <button type="button" className="toast__close" aria-label="Dismiss notification" onClick={() => onDismiss(toast.id)}>
        ×
      </button>
    </div>
  );
}
