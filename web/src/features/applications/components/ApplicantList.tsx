import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ApplicantView, JobDetail } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import type { ApplicationDecision } from '../api/decide-application';
import type { JobApplicants } from '../hooks/useApplications';
import { EmptyState } from '../../../lib/components/EmptyState';
import { Avatar } from '../../../lib/components/Avatar';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { ApplicationSpots } from './ApplicationSpots';
import { RatingSummary } from '../../reviews';

interface ApplicantListProps {
  job: JobDetail;
  applicants: JobApplicants;
  /** After an accept: the job is assigned now. */
  onAccepted(): void;
}

/** The poster's applicants, newest first, each with accept, reject and message while undecided. */
export function ApplicantList({ job, applicants, onAccepted }: ApplicantListProps) {
  const { query } = applicants;
  if (query.isPending) return <p className="muted">Loading applications...</p>;
  if (query.isError) {
    return (
      <EmptyState title={MSG.applications.loadFailed}>
        <button type="button" className="button button--secondary" onClick={() => void query.refetch()}>
          Try again
        </button>
      </EmptyState>
    );
  }
  return (
    <section aria-label="Applicants">
      {job.status === 'open' ? <ApplicationSpots pending={query.data.pending} /> : null}
      {query.data.items.length === 0 ? (
        <EmptyState title="No applications yet." />
      ) : (
        <ul className="applicants">
          {query.data.items.map((applicant) => (
            <li key={applicant.application.id}>
              <ApplicantCard job={job} applicant={applicant} applicants={applicants} onAccepted={onAccepted} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface ApplicantCardProps extends ApplicantListProps {
  applicant: ApplicantView;
}

function ApplicantCard({ job, applicant: { application, worker }, applicants, onAccepted }: ApplicantCardProps) {
  const [busy, setBusy] = useState(false);
  const undecided = application.status === 'pending' && job.status === 'open';

  async function decide(decision: ApplicationDecision) {
    setBusy(true);
    const done = await applicants.decide(worker.id, decision);
    setBusy(false);
    if (done && decision === 'accept') onAccepted();
  }

  return (
    <article className="applicant card" aria-label={worker.name}>
      <header className="applicant__header">
        <Avatar name={worker.name} imageUrl={worker.profileImage} />
        <div>
          <h3 className="applicant__name">{worker.name}</h3>
          <IdentityBadge verified={worker.identityVerified} />
          <RatingSummary rating={worker.rating} reviewCount={worker.reviewCount} />
        </div>
        <span className={`badge badge--application-${application.status}`}>{application.status}</span>
      </header>
      {worker.bio ? <p className="preserve-lines">{worker.bio}</p> : null}
      {worker.skills.length > 0 ? (
        <ul className="chips" aria-label={`Skills of ${worker.name}`}>
          {worker.skills.map((skill) => (
            <li key={skill} className="chip">
              {skill}
            </li>
          ))}
        </ul>
      ) : null}
      {application.message ? (
        <blockquote className="applicant__message preserve-lines">{application.message}</blockquote>
      ) : (
        <p className="muted">No message.</p>
      )}
      <div className="button-row">
        {undecided ? (
          <>
            <button type="button" className="button button--small" disabled={busy} onClick={() => void decide('accept')}>
              Accept<span className="visually-hidden"> {worker.name}</span>
            </button>
            <button type="button" className="button button--small button--danger-outline" disabled={busy} onClick={() => void decide('reject')}>
              Reject<span className="visually-hidden"> {worker.name}</span>
            </button>
          </>
        ) : null}
        {/* As the server decides a start: any applicant while open, then only the assigned worker until paid. */}
        {job.status === 'open' || (job.workerId === worker.id && job.status !== 'paid') ? (
          <Link
            className="button button--small button--secondary"
            to={`/real-time-messages?job=${encodeURIComponent(job.id)}&worker=${encodeURIComponent(worker.id)}`}
          >
            Message<span className="visually-hidden"> {worker.name}</span>
          </Link>
        ) : null}
      </div>
    </article>
  );
}
