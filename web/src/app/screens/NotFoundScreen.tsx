import { Link } from 'react-router-dom';
import { MSG } from '../../../../shared/messages';
import { PageHeading } from '../../lib/components/PageHeading';

export default function NotFoundScreen() {
  return (
    <div className="page page--narrow page--centered not-found">
      <PageHeading>{MSG.notFoundPage}</PageHeading>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="button">
        Return to Home
      </Link>
    </div>
  );
}
