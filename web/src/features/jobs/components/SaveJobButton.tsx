import { useState } from 'react';
import type { JobSummary } from '../../../../../shared/api';
import type { SavedJobs } from '../hooks/useSavedJobs';

/** A worker's Save / Saved toggle for one job. */
export function SaveJobButton({ job, savedJobs }: { job: JobSummary; savedJobs: SavedJobs }) {
  const [busy, setBusy] = useState(false);
  const saved = savedJobs.isSaved(job.id);

  async function toggle() {
    setBusy(true);
    await (saved ? savedJobs.unsave(job.id) : savedJobs.save(job));
    setBusy(false);
  }

  return (
    <button
      type="button"
      className={`button ${saved ? 'button--saved' : 'button--secondary'}`}
      aria-pressed={saved}
      disabled={busy || !savedJobs.query.isSuccess}
      onClick={() => void toggle()}
    >
      <span aria-hidden="true">{saved ? '★' : '☆'}</span>
      {saved ? 'Saved' : 'Save'}
    </button>
  );
}
