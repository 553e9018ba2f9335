import '../styles/dashboards.css';
import { useId, useRef, useState } from 'react';
import { MSG } from '../../../shared/messages';
import { EmptyState } from '../components/EmptyState';
import { PageHeading } from '../components/PageHeading';
import { AboutCard } from '../components/profile/AboutCard';
import { MemberSinceCard } from '../components/profile/MemberSinceCard';
import { PaymentSettingsCard } from '../components/profile/PaymentSettingsCard';
import { ProfileEditForm } from '../components/profile/ProfileEditForm';
import { ProfileHeader } from '../components/profile/ProfileHeader';
import { ProfileJobsCard } from '../components/profile/ProfileJobsCard';
import { SessionsCard } from '../components/profile/SessionsCard';
import { StatsCard } from '../components/profile/StatsCard';
import { UserReviewsCard } from '../components/reviews/UserReviewsCard';
import { useAuth } from '../hooks/useAuth';
import { useProfileSetupReturn } from '../hooks/useProfileSetupReturn';
import { useScrollToHash } from '../hooks/useScrollToHash';

export default function ProfileScreen() {
  const { profile } = useAuth();
  const [editing, setEditing] = useState(false);
  const editToggle = useRef<HTMLButtonElement>(null);
  const editFormId = useId();
  useScrollToHash();
  useProfileSetupReturn();

  if (!profile) {
    return (
      <div className="page page--narrow">
        <PageHeading>Profile</PageHeading>
        <EmptyState title={MSG.auth.failedToLoadProfile} />
      </div>
    );
  }

  // Saving or cancelling removes the form: keyboard users continue from the toggle.
  const closeEditor = () => {
    setEditing(false);
    editToggle.current?.focus();
  };

  return (
    <div className="page profile-page">
      <ProfileHeader
        profile={profile}
        editing={editing}
        editFormId={editFormId}
        toggleRef={editToggle}
        onToggleEdit={() => (editing ? closeEditor() : setEditing(true))}
      />
      {editing ? <ProfileEditForm id={editFormId} profile={profile} onSaved={closeEditor} /> : null}
      <div className="profile-grid">
        <div className="profile-grid__main">
          <AboutCard profile={profile} />
          <ProfileJobsCard profile={profile} />
          {profile.role === 'admin' ? null : <UserReviewsCard userId={profile.id} heading="My Reviews" emptyText="No reviews yet." />}
          <PaymentSettingsCard profile={profile} />
        </div>
        <div className="profile-grid__side">
          <StatsCard profile={profile} />
          <MemberSinceCard createdAt={profile.createdAt} />
          <SessionsCard />
        </div>
      </div>
    </div>
  );
}
