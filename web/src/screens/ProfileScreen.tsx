import { MSG } from '../../../shared/messages';
import { ROLE_LABEL } from '../../../shared/roles';
import { EmptyState } from '../components/EmptyState';
import { PageHeading } from '../components/PageHeading';
import { useAuth } from '../hooks/useAuth';
import { formatCalendarDay, formatRating, initials } from '../lib/format';

export default function ProfileScreen() {
  const { profile } = useAuth();
  if (!profile) {
    return (
      <div className="page page--narrow">
        <PageHeading>Profile</PageHeading>
        <EmptyState title={MSG.auth.failedToLoadProfile} />
      </div>
    );
  }
  return (
    <div className="page page--narrow">
      <div className="profile-header card">
        <span className="avatar avatar--large" aria-hidden="true">
          {initials(profile.name)}
        </span>
        <div>
          <PageHeading title="Profile">{profile.name}</PageHeading>
          <p className="muted">{ROLE_LABEL[profile.role]}</p>
          <p className="break-anywhere">{profile.email}</p>
          {profile.location ? <p>{profile.location}</p> : null}
        </div>
      </div>
      <section className="card" aria-labelledby="stats-heading">
        <h2 id="stats-heading">Stats</h2>
        <dl className="facts">
          <div>
            <dt>Rating</dt>
            <dd>{formatRating(profile.rating)}</dd>
          </div>
          <div>
            <dt>Completed jobs</dt>
            <dd>{profile.completedJobs}</dd>
          </div>
          <div>
            <dt>Member since</dt>
            <dd>{formatCalendarDay(profile.createdAt.slice(0, 10))}</dd>
          </div>
        </dl>
      </section>
      {profile.bio ? (
        <section className="card" aria-labelledby="about-heading">
          <h2 id="about-heading">About</h2>
          <p className="preserve-lines">{profile.bio}</p>
        </section>
      ) : null}
    </div>
  );
}
