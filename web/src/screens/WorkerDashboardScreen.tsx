import { Link } from 'react-router-dom';
import { JobBoard } from '../components/jobs/JobBoard';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';

export default function WorkerDashboardScreen() {
  const { profile } = useAuth();
  return (
    <div className="page">
      <div className="page__header">
        <div>
          <PageHeading>Worker Dashboard</PageHeading>
          {profile ? <p className="page__lead">Welcome back, {profile.name}.</p> : null}
        </div>
        <Link to="/dashboard" className="button">
          Find Jobs
        </Link>
      </div>
      <section className="section-block" aria-labelledby="available-jobs-heading">
        <h2 id="available-jobs-heading">Available Jobs</h2>
        <JobBoard feed="personal" />
      </section>
    </div>
  );
}
