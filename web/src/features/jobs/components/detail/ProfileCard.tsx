import { Link } from 'react-router-dom';
import type { PublicProfile } from '../../../../../../shared/api';
import { ROLE_LABEL } from '../../../../../../shared/roles';
import { Avatar } from '../../../../lib/components/Avatar';
import { IdentityBadge } from '../../../../lib/components/IdentityBadge';
import { RatingSummary } from '../../../reviews';

interface ProfileCardProps {
  heading: string;
  /** Null: the profile is missing (or not loaded); `fallback` is shown instead. */
  profile: PublicProfile | null;
  fallback: string;
}

/** A side-column card about one party of the job: name, role and rating. */
export function ProfileCard({ heading, profile, fallback }: ProfileCardProps) {
  return (
    <section className="card" aria-label={heading}>
      <h2>{heading}</h2>
      {profile ? (
        <div className="party">
          <Avatar name={profile.name} imageUrl={profile.profileImage} />
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>
                <Link to={`/profiles/${encodeURIComponent(profile.id)}`}>{profile.name}</Link> <IdentityBadge verified={profile.identityVerified} />
              </dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{ROLE_LABEL[profile.role]}</dd>
            </div>
            <div>
              <dt>Rating</dt>
              <dd>
                <RatingSummary rating={profile.rating} reviewCount={profile.reviewCount} />
              </dd>
            </div>
          </dl>
        </div>
      ) : (
        <p className="muted">{fallback}</p>
      )}
    </section>
  );
}
