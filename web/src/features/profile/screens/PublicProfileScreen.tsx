import '../../../styles/dashboards.css';
import { Link, useParams } from 'react-router-dom';
import { MSG } from '../../../../../shared/messages';
import { ROLE_LABEL } from '../../../../../shared/roles';
import { isNotFound } from '../../../lib/api/client';
import { EmptyState } from '../../../lib/components/EmptyState';
import { LoadingState } from '../../../lib/components/LoadingState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { RatingSummary, UserReviewsCard, useRatedProfile } from '../../reviews';
import { Avatar } from '../../../lib/components/Avatar';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { MemberSinceCard } from '../components/MemberSinceCard';

/** Another user's public profile (reached from a job page or a review): who they are, their rating and the reviews about them. */
export default function PublicProfileScreen() {
  const { id = '' } = useParams();
  const profile = useRatedProfile(id);

  if (profile.isPending) return <LoadingState label="Loading profile..." />;
  if (profile.isError) {
    return (
      <div className="page page--narrow page--centered">
        <PageHeading>{isNotFound(profile.error) ? MSG.auth.profileNotFound : MSG.backend.unexpected}</PageHeading>
        <EmptyState title="">
          <Link to="/" className="button">
            Back to Home
          </Link>
        </EmptyState>
      </div>
    );
  }
  const user = profile.data;
  return (
    <div className="page profile-page">
      <div className="card profile-header">
        <Avatar name={user.name} imageUrl={user.profileImage} />
        <div className="profile-header__identity">
          <PageHeading title="Profile" className="profile-header__name">
            {user.name}
          </PageHeading>
          <p className="profile-header__role">
            {ROLE_LABEL[user.role]} <IdentityBadge verified={user.identityVerified} />
          </p>
          <p>
            <RatingSummary rating={user.rating} reviewCount={user.reviewCount} />
          </p>
        </div>
      </div>
      <div className="profile-grid">
        <div className="profile-grid__main">
          <section className="card" aria-labelledby="about-heading">
            <h2 id="about-heading">About</h2>
            <p className="preserve-lines">{user.bio || 'No bio yet.'}</p>
            {user.skills.length ? (
              <ul className="chips" aria-label="Skills">
                {user.skills.map((skill) => (
                  <li key={skill} className="chip">
                    {skill}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
          <UserReviewsCard userId={user.id} heading="Reviews" emptyText={`${user.name} has no reviews yet.`} />
        </div>
        <div className="profile-grid__side">
          <MemberSinceCard createdAt={user.createdAt} />
        </div>
      </div>
    </div>
  );
}
