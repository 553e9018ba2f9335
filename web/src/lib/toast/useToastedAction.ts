import { useState } from 'react';
import { useToast } from './useToast';

/**
 * A button's one-at-a-time action that ends in a toast: `busy` while it runs (a second click
 * does nothing), the success text on success, the failure's text otherwise.
 */
export function useToastedAction(action: () => Promise<unknown>, successText: string, failureText: (error: unknown) => string) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function run() {
    if (busy) return;
    setBusy(true);
    try {
      await action();
      toast.success(successText);
    } catch (error) {
      toast.error(failureText(error));
    }
    setBusy(false);
  }
  return { busy, run };
}
