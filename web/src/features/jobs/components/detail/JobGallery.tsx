import type { JobDetail } from '../../../../../../shared/api';

export function JobGallery({ job }: { job: JobDetail }) {
  if (job.images.length === 0) return null;
  return (
    <ul className="job-detail__gallery" aria-label="Photos">
      {job.images.map((url, index) => (
        <li key={url}>
          <img src={url} alt={`${job.title}, photo ${index + 1} of ${job.images.length}`} />
        </li>
      ))}
    </ul>
  );
}
