import { Link, useParams } from 'react-router-dom';
import type { JobDetail, PublicProfile } from '../../../shared/api';
import { MSG } from '../../../shared/messages';
import { formatCents } from '../../../shared/money';
import { ROLE_LABEL } from '../../../shared/roles';
import { apiErrorText, isNotFound } from '../api/client';
import { fetchJob } from '../api/endpoints';
import { EmptyState } from '../components/EmptyState';
import { LoadingState } from '../components/LoadingState';
import { PageHeading } from '../components/PageHeading';
import { StatusBadge } from '../components/StatusBadge';
import { useApiQuery } from '../hooks/useApiQuery';
import { formatCalendarDay, formatRating } from '../lib/format';

const SAFETY_TIPS = [
  'Meet in a public place when possible',
  'Verify the identity of the person you are meeting',
  'Discuss payment terms before starting the work',
  'Trust your instincts: if something feels wrong, walk away',
  'Share the job details with someone you trust',
];

export default function JobDetailScreen() {
  const { id = '' } = useParams();
  const job = useApiQuery(`job:${id}`, (api) => fetchJob(api, id));

  if (job.status === 'loading') return <LoadingState label="Loading job..." />;
  if (job.status === 'failed') {
    if (isNotFound(job.error)) return <JobNotFound />;
    return (
      <div className="page">
        <PageHeading>Job</PageHeading>
        <EmptyState title={apiErrorText(job.error, MSG.backend.unexpected)}>
          <button type="button" className="button button--secondary" onClick={job.reload}>
            Try again
          </button>
        </EmptyState>
      </div>
    );
  }
  return <JobDetailView job={job.data} />;
}

function JobNotFound() {
  return (
    <div className="page page--narrow page--centered">
      <PageHeading>{MSG.jobs.notFound}</PageHeading>
      <p>This job may have been removed or is no longer available.</p>
      <Link to="/" className="button">
        Back to Home
      </Link>
    </div>
  );
}

function JobDetailView({ job }: { job: JobDetail }) {
  return (
    <div className="page job-detail">
      <div className="job-detail__main">
        {job.images.length > 0 ? (
          <ul className="job-detail__gallery">
            {job.images.map((url, index) => (
              <li key={index}>
                <img src={url} alt={`${job.title}, photo ${index + 1} of ${job.images.length}`} />
              </li>
            ))}
          </ul>
        ) : null}

        <header className="job-detail__header">
          <StatusBadge status={job.status} />
          <PageHeading>{job.title}</PageHeading>
          <p className="job-detail__location">{job.location}</p>
          <p className="job-detail__price">{formatCents(job.postedAmount)}</p>
        </header>

        <section className="card" aria-labelledby="job-details-heading">
          <h2 id="job-details-heading">Job Details</h2>
          <dl className="facts">
            <div>
              <dt>Category</dt>
              <dd>{job.category}</dd>
            </div>
            <div>
              <dt>Due date</dt>
              <dd>{formatCalendarDay(job.date)}</dd>
            </div>
            <div>
              <dt>Duration</dt>
              <dd>{job.duration}</dd>
            </div>
          </dl>
          <h3>Description</h3>
          <p className="preserve-lines">{job.description}</p>
          {job.requirements.length > 0 ? (
            <>
              <h3>Requirements</h3>
              <ul className="bullets">
                {job.requirements.map((requirement, index) => (
                  <li key={index}>{requirement}</li>
                ))}
              </ul>
            </>
          ) : null}
          {job.skills.length > 0 ? (
            <>
              <h3>Skills</h3>
              <ul className="chips" aria-label="Skills">
                {job.skills.map((skill, index) => (
                  <li key={index} className="chip">
                    {skill}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <p className="note">{MSG.jobs.paymentUponCompletion}</p>
        </section>

        <AddressCard job={job} />
      </div>

      <aside className="job-detail__side" aria-label="About this job">
        <PosterCard poster={job.poster} />
        <section className="card" aria-labelledby="safety-heading">
          <h2 id="safety-heading">Safety Tips</h2>
          <ul className="bullets">
            {SAFETY_TIPS.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </section>
      </aside>
    </div>
  );
}

/** The street address is private: only the poster and the assigned worker receive it. */
function AddressCard({ job }: { job: JobDetail }) {
  return (
    <section className="card card--private" aria-labelledby="address-heading">
      <h2 id="address-heading">Job Location</h2>
      {job.fullAddress ? (
        <p className="job-detail__address">{job.fullAddress}</p>
      ) : (
        <>
          <p className="job-detail__address">{job.location}</p>
          <p className="muted">The full address is shared with the assigned worker.</p>
        </>
      )}
    </section>
  );
}

function PosterCard({ poster }: { poster: PublicProfile | null }) {
  return (
    <section className="card" aria-labelledby="posted-by-heading">
      <h2 id="posted-by-heading">Posted By</h2>
      {poster ? (
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{poster.name}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{ROLE_LABEL[poster.role]}</dd>
          </div>
          <div>
            <dt>Rating</dt>
            <dd>
              {formatRating(poster.rating)}
              {poster.rating !== null ? ` (${poster.reviewCount} ${poster.reviewCount === 1 ? 'review' : 'reviews'})` : null}
            </dd>
          </div>
        </dl>
      ) : (
        <p className="muted">{MSG.jobs.posterLabel}</p>
      )}
    </section>
  );
}
