import type { Ref } from 'react';
import type { OwnProfile } from '../../../../../shared/api';
import { ROLE_LABEL } from '../../../../../shared/roles';
import { IdentityBadge } from '../../../lib/components/IdentityBadge';
import { PageHeading } from '../../../lib/components/PageHeading';
import { AvatarEditor } from './AvatarEditor';

interface ProfileHeaderProps {
  profile: OwnProfile;
  editing: boolean;
  /** The id of the edit form the toggle opens. */
  editFormId: string;
  onToggleEdit(): void;
  toggleRef: Ref<HTMLButtonElement>;
}

/** Picture, name, role, email and location, with the Edit Profile / Cancel toggle. */
export function ProfileHeader({ profile, editing, editFormId, onToggleEdit, toggleRef }: ProfileHeaderProps) {
  return (
    <div className="card profile-header">
      <AvatarEditor profile={profile} />
      <div className="profile-header__identity">
        <PageHeading title="Profile" className="profile-header__name">
          {profile.name}
        </PageHeading>
        <p className="profile-header__role">
          {ROLE_LABEL[profile.role]} <IdentityBadge verified={profile.identityVerified} />
        </p>
        <p className="break-anywhere">{profile.email}</p>
        {profile.location ? <p className="muted">{profile.location}</p> : null}
      </div>
      <button
        ref={toggleRef}
        type="button"
        className={editing ? 'button button--secondary' : 'button'}
        aria-expanded={editing}
        {...(editing ? { 'aria-controls': editFormId } : {})}
        onClick={onToggleEdit}
      >
        {editing ? 'Cancel' : 'Edit Profile'}
      </button>
    </div>
  );
}
