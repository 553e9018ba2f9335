import { Link } from 'react-router-dom';
import type { JobCardSummary } from '../../../../../shared/api';
import { MSG } from '../../../../../shared/messages';
import { OFFER_LABELS } from '../../../../../shared/offers';
import { formatRelativeTime } from '../../../lib/format';
import { StatusBadge } from '../../../lib/components/StatusBadge';
import { JobPrice } from './JobPrice';
import { MarkedText } from './MarkedText';

const SKILLS_SHOWN = 2;

/**
 * One open job in a grid (spec 1 §2 "Job card"). The title is the link; the whole card is its click target.
 * A search's card also marks the words it matched and says how far away the job is (issue 46).
 */
export function JobCard({ job, now }: { job: JobCardSummary; now: number }) {
  const [firstImage] = job.images;
  const shownSkills = job.skills.slice(0, SKILLS_SHOWN);
  const moreSkills = job.skills.length - shownSkills.length;
  return (
    <article className="job-card">
      {firstImage ? (
        <img className="job-card__image" src={firstImage} alt="" loading="lazy" />
      ) : (
        <div className="job-card__image job-card__image--placeholder" aria-hidden="true" />
      )}
      <div className="job-card__body">
        <div className="job-card__heading">
          <h3 className="job-card__title">
            <Link to={`/jobs/${job.id}`} className="job-card__link">
              <MarkedText text={job.title} words={job.matchedWords} />
            </Link>
          </h3>
          <StatusBadge status={job.status} />
        </div>
        <p className="job-card__description">
          <MarkedText text={job.description} words={job.matchedWords} />
        </p>
        <p className="job-card__price">
          <JobPrice job={job} />
        </p>
        <p className="job-card__location">
          {job.location}
          {job.distanceMiles !== undefined ? (
            <span className="job-card__distance" aria-label={MSG.search.distanceLabel(job.distanceMiles)}>
              {MSG.search.distance(job.distanceMiles)}
            </span>
          ) : null}
        </p>
        {job.verifiedWorkersOnly ? <p className="job-card__verified-only">{MSG.identity.verifiedOnly}</p> : null}
        {job.openToOffers ? <p className="job-card__offers">{OFFER_LABELS.openToOffers}</p> : null}
        {shownSkills.length > 0 ? (
          <ul className="chips" aria-label="Skills">
            {shownSkills.map((skill, index) => (
              <li key={index} className="chip">
                {skill}
              </li>
            ))}
            {moreSkills > 0 ? <li className="chip chip--muted">+{moreSkills} more</li> : null}
          </ul>
        ) : null}
        <p className="job-card__meta">
          <span>{MSG.jobs.posterLabel}</span>
          <time dateTime={job.createdAt}>{formatRelativeTime(job.createdAt, now)}</time>
        </p>
      </div>
    </article>
  );
}
