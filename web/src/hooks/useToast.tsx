import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ToastRegion, type Toast, type ToastKind } from '../components/ToastRegion';

export interface Toaster {
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
}

const ToastContext = createContext<Toaster | null>(null);

const VISIBLE_MS: Record<ToastKind, number> = { success: 5000, info: 5000, error: 8000 };
const MAX_VISIBLE = 4;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(0);

  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), []);

  const show = useCallback(
    (kind: ToastKind, text: string) => {
      const id = ++nextId.current;
      // The same text twice (a retried call, a re-run effect) shows once, with a fresh timer.
      setToasts((current) =>
        [...current.filter((toast) => toast.kind !== kind || toast.text !== text), { id, kind, text }].slice(-MAX_VISIBLE),
      );
      window.setTimeout(() => dismiss(id), VISIBLE_MS[kind]);
    },
    [dismiss],
  );

  const toaster = useMemo<Toaster>(
    () => ({
      success: (text) => show('success', text),
      error: (text) => show('error', text),
      info: (text) => show('info', text),
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
