import '../../../styles/dashboards.css';
import { useId, useRef, useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { EmptyState } from '../../../lib/components/EmptyState';
import { PageHeading } from '../../../lib/components/PageHeading';
import { AboutCard } from '../components/AboutCard';
import { DataExportCard } from '../components/DataExportCard';
import { DeleteAccountCard } from '../components/DeleteAccountCard';
import { IdentityCard } from '../components/identity/IdentityCard';
import { MemberSinceCard } from '../components/MemberSinceCard';
import { PaymentSettingsCard } from '../components/PaymentSettingsCard';
import { ProfileEditForm } from '../components/ProfileEditForm';
import { ProfileHeader } from '../components/ProfileHeader';
import { ProfileJobsCard } from '../components/ProfileJobsCard';
import { SessionsCard } from '../components/SessionsCard';
import { StatsCard } from '../components/StatsCard';
import { UserReviewsCard } from '../../reviews';
import { useAuth } from '../../../lib/auth/useAuth';
import { useProfileSetupReturn } from '../hooks/useProfileSetupReturn';
import { useScrollToHash } from '../../../lib/hooks/useScrollToHash';

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
          <IdentityCard profile={profile} />
          <StatsCard profile={profile} />
          <MemberSinceCard createdAt={profile.createdAt} />
          <SessionsCard />
          <DataExportCard />
          {profile.role === 'admin' ? null : <DeleteAccountCard />}
        </div>
      </div>
    </div>
  );
}
