import { Link } from 'react-router-dom';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';

export default function PosterDashboardScreen() {
  const { profile } = useAuth();
  return (
    <div className="page">
      <div className="page__header">
        <div>
          <PageHeading>{profile ? `${profile.name} Dashboard` : 'Dashboard'}</PageHeading>
          <p className="page__lead">Post jobs, choose a worker, and pay when the work is done.</p>
        </div>
        <Link to="/post-job" className="button">
          Post New Job
        </Link>
      </div>
    </div>
  );
}
