import { Link } from 'react-router-dom';
import { disputeCenterPath } from '../../../../../shared/disputes';
import { MSG } from '../../../../../shared/messages';

/** The job page's way to the Dispute Center, for a party who may dispute the job now (shared/disputes.ts mayDispute). */
export function DisputeCenterCard({ jobId }: { jobId: string }) {
  return (
    <section className="card">
      <p>{MSG.disputes.reportProblem}</p>
      <Link to={disputeCenterPath(jobId)} className="button button--small button--secondary">
        {MSG.disputes.openDisputeCenter}
      </Link>
    </section>
  );
}
