import { useId, type ChangeEvent } from 'react';
import type { OwnProfile } from '../../../../../shared/api';
import { Avatar } from '../../../lib/components/Avatar';
import { useAvatarUpload } from '../hooks/useAvatarUpload';

/** The profile picture with its Change and Remove controls and the upload's progress. */
export function AvatarEditor({ profile }: { profile: OwnProfile }) {
  const { progress, problem, upload, remove } = useAvatarUpload();
  const inputId = useId();
  const busy = progress.phase !== 'idle';

  function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after an error) still counts as a change.
    event.target.value = '';
    if (file) void upload(file);
  }

  return (
    <div className="avatar-editor">
      <Avatar name={profile.name} imageUrl={profile.profileImage} size="large" />
      <div className="avatar-editor__controls">
        <input
          id={inputId}
          type="file"
          accept="image/*"
          className="visually-hidden avatar-editor__input"
          disabled={busy}
          onChange={onFileChosen}
        />
        <label htmlFor={inputId} className="button button--small button--secondary">
          {profile.profileImage ? 'Change photo' : 'Upload photo'}
        </label>
        {profile.profileImage ? (
          <button type="button" className="button button--small button--ghost" disabled={busy} onClick={() => void remove()}>
            Remove photo
          </button>
        ) : null}
      </div>
      {progress.phase === 'uploading' ? (
        <div
          className="progress"
          role="progressbar"
          aria-label="Uploading profile picture"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress.percent}
        >
          <span className="progress__bar" style={{ width: `${progress.percent}%` }} />
        </div>
      ) : null}
      {progress.phase === 'saving' ? <p role="status" className="avatar-editor__status">Saving...</p> : null}
      {problem ? (
        <p role="alert" className="field__error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
