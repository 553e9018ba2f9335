import { lazy, Suspense, useEffect, useRef } from 'react';
import type { JobDetail, JobSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import type { CreateJobRequest, JobFormValues } from '../../../../../shared/schemas/job';
import { apiErrorText } from '../../../lib/api/client';
import { useJob } from '../api/fetch-job';
import { updateJob } from '../api/update-job';
import { useApi } from '../../../lib/api/useApi';
import type { AttachedImage } from '../hooks/useJobImages';
import { useToast } from '../../../lib/toast/useToast';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';

// The form (and zod, which validates it) loads when someone edits, beside the job's read: the
// dashboards and the job page that offer 'Edit' leave it out of their first load.
const JobForm = lazy(() => import('./JobForm').then(({ JobForm }) => ({ default: JobForm })));

/** The server keeps "street, city, state"; the street itself may hold commas. */
function splitAddress(fullAddress: string): Pick<JobFormValues, 'street' | 'city' | 'state'> {
  const parts = fullAddress.split(',').map((part) => part.trim());
  const state = parts.pop() ?? '';
  const city = parts.pop() ?? '';
  return { street: parts.join(', '), city, state };
}

function toFormValues(job: JobDetail): JobFormValues {
  return {
    title: job.title,
    description: job.description,
    ...splitAddress(job.fullAddress ?? job.location),
    payment: (job.payment / 100).toFixed(2),
    category: job.category,
    date: job.date,
    duration: job.duration,
    requirements: job.requirements.join('\n'),
    skills: job.skills.join('\n'),
  };
}

/**
 * A job's images come as URLs; an edit sends the keys of those it keeps. A URL is the images
 * base plus the key, and every key starts with "uploads/" (functions/lib/images.ts).
 */
function toAttachedImages(urls: string[]): AttachedImage[] {
  return urls.flatMap((url) => {
    const path = new URL(url).pathname;
    const start = path.indexOf('/uploads/');
    return start === -1 ? [] : [{ url, key: decodeURIComponent(path.slice(start + 1)) }];
  });
}

interface EditJobPanelProps {
  jobId: string;
  onSaved(job: JobSummary): void;
  onClose(): void;
}

/** 'Edit Job': the job form filled with the job as the server has it now (address included). */
export function EditJobPanel({ jobId, onSaved, onClose }: EditJobPanelProps) {
  const api = useApi();
  const toast = useToast();
  const heading = useRef<HTMLHeadingElement>(null);
  const job = useJob(jobId);

  // The panel replaces the page: start the keyboard and screen-reader user at its top.
  useEffect(() => heading.current?.focus(), []);

  async function save(request: CreateJobRequest) {
    const updated = await updateJob(api, jobId, request);
    toast.success(MSG.jobs.updated);
    onSaved(updated);
  }

  return (
    <div className="page page--narrow">
      <h1 ref={heading} tabIndex={-1}>
        Edit Job
      </h1>
      {job.isPending ? <LoadingState label="Loading job..." /> : null}
      {job.isError ? (
        <EmptyState title={apiErrorText(job.error, MSG.jobs.notFound)}>
          <div className="button-row button-row--center">
            <button type="button" className="button button--secondary" onClick={() => void job.refetch()}>
              Try again
            </button>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Back
            </button>
          </div>
        </EmptyState>
      ) : null}
      {job.isSuccess ? (
        <Suspense fallback={<LoadingState label="Loading job..." />}>
          <JobForm
            initialValues={toFormValues(job.data)}
            initialImages={toAttachedImages(job.data.images)}
            submitLabel="Save Changes"
            savingLabel="Saving..."
            failureText={MSG.jobs.updateFailed}
            onSubmit={save}
            onCancel={onClose}
            // Only open jobs are edited, and a job opens when its payment succeeded.
            paymentLocked
            initialVerifiedWorkersOnly={job.data.verifiedWorkersOnly}
            initialOpenToOffers={job.data.openToOffers}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
