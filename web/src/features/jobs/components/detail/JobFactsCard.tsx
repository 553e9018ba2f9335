import type { JobDetail } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { formatCalendarDay } from '../../../../lib/format';

/** What the job is: category, due date, duration, description, requirements and skills. */
export function JobFactsCard({ job }: { job: JobDetail }) {
  return (
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
  );
}

/** The street address is private: only the poster and the assigned worker receive it. */
export function AddressCard({ job }: { job: JobDetail }) {
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
