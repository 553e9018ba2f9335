import { useState } from 'react';
import type { JobSummary } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { useToast } from '../../../lib/toast/useToast';

export interface JobStep {
  busy: boolean;
  /** Runs one step of the job's lifecycle; resolves whether it went through. */
  run(call: (api: ApiClient) => Promise<JobSummary>, success: string, failure: (error: unknown) => string): Promise<boolean>;
}

/** One lifecycle step (complete, decline, release): busy while it runs, its outcome as a toast, then the job is read again. */
export function useJobStep(onChanged: () => void): JobStep {
  const api = useApi();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return {
    busy,
    async run(call, success, failure) {
      setBusy(true);
      try {
        await call(api);
        toast.success(success);
        return true;
      } catch (error) {
        toast.error(failure(error));
        return false;
      } finally {
        setBusy(false);
        onChanged();
      }
    },
  };
}
