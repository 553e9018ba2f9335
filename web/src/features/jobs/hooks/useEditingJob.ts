import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';

export interface EditingJob {
  /** The job whose 'Edit Job' form replaces the page, or null. */
  jobId: string | null;
  start(jobId: string): void;
  stop(): void;
}

/**
 * The 'Edit Job' mode of a screen. The screen stays mounted (hidden) under the form, so on
 * leaving the form focus goes back to the Edit button that opened it.
 */
export function useEditingJob(): EditingJob {
  const [jobId, setJobId] = useState<string | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  return {
    jobId,
    start(id) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setJobId(id);
    },
    stop() {
      flushSync(() => setJobId(null));
      opener.current?.focus();
    },
  };
}
