import { useEffect, useRef } from 'react';

/**
 * Opens a native modal <dialog> while the component is mounted: focus stays inside and the
 * page behind is inert; unmounting closes it and returns focus to whatever opened it.
 */
export function useModalDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    element.showModal();
    return () => {
      element.close();
      opener?.focus();
    };
  }, []);
  return dialog;
}
