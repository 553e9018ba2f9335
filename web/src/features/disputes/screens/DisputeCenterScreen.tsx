import { useParams } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { DisputeForm } from '../components/DisputeForm';
import { HowDisputesWork } from '../components/HowDisputesWork';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { useDisputeCenter } from '../api/fetch-dispute-center';
import { useDisputeLiveUpdates } from '../hooks/useDisputes';
import '../../../styles/disputes.css';

/** /jobs/{jobId}/dispute (spec 2 §2): the form, 'Dispute Under Review', or 'Unable to Submit Dispute'. */
export default function DisputeCenterScreen() {
  const { jobId = '' } = useParams();
  const center = useDisputeCenter(jobId);
  useDisputeLiveUpdates();

  return (
    <div className="page">
      <div className="page__header">
        <PageHeading>Dispute Center</PageHeading>
      </div>
      <div className="dispute-center">
        <section className="card" aria-live="polite">
          {center.isPending ? (
            <LoadingState label="Loading..." />
          ) : center.data?.state === 'form' ? (
            <>
              <h2>{MSG.disputes.submitADispute}</h2>
              <p className="muted">About “{center.data.jobTitle}”</p>
              <DisputeForm jobId={jobId} />
            </>
          ) : center.data?.state === 'under_review' ? (
            <>
              <h2>{MSG.disputes.underReview}</h2>
              <p>{MSG.disputes.underReviewText}</p>
              <p className="muted">{MSG.disputes.responseTime}</p>
            </>
          ) : (
            // A failed load also lands here (spec 2 §8: it leaves the screen 'Unable to Submit').
            <>
              <h2>{MSG.disputes.unableToSubmit}</h2>
              <p>{MSG.disputes.cannotSubmit}</p>
            </>
          )}
        </section>
        <HowDisputesWork />
      </div>
    </div>
  );
}
