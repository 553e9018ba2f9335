import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ToastRegion, type Toast, type ToastKind } from './ToastRegion';

/** `durationMs` overrides the kind's default time on screen (e.g. the spec's notification toasts). */
export interface Toaster {
  success(text: string, durationMs?: number): void;
  error(text: string, durationMs?: number): void;
  info(text: string, durationMs?: number): void;
}

const ToastContext = createContext<Toaster | null>(null);

const VISIBLE_MS: Record<ToastKind, number> = { success: 5000, info: 5000, error: 8000 };
const MAX_VISIBLE = 4;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  const show = useCallback(
    (kind: ToastKind, text: string, durationMs = VISIBLE_MS[kind]) => {
      const id = ++nextId.current;
      // The same text twice (a retried call, a re-run effect) shows once, with a fresh timer.
      setToasts((current) =>
        [...current.filter((toast) => toast.kind !== kind || toast.text !== text), { id, kind, text }].slice(-MAX_VISIBLE),
      );
      window.setTimeout(() => dismiss(id), durationMs);
    },
    [dismiss],
  );

  const toaster = useMemo<Toaster>(
    () => ({
      success: (text, durationMs) => show('success', text, durationMs),
      error: (text, durationMs) => show('error', text, durationMs),
      info: (text, durationMs) => show('info', text, durationMs),
    }),
    [show],
  );

  return (
    <ToastContext.Provider value={toaster}>
      {children}
      <ToastRegion toasts={toasts} onDismiss={dismiss} />
    </ToastContext.Provider>
  );
}

export function useToast(): Toaster {
  const toaster = useContext(ToastContext);
  if (!toaster) throw new Error('useToast needs a ToastProvider');
  return toaster;
}
