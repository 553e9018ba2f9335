import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { apiErrorText } from '../../../lib/api/client';
import { requestImageUpload } from '../../../lib/api/request-image-upload';
import { imageFileProblem, UploadFailedError, uploadWithTicket } from '../../../lib/api/presigned-upload';
import { useApi } from '../../../lib/api/useApi';
import { useAuth } from '../../../lib/auth/useAuth';
import { useToast } from '../../../lib/toast/useToast';

export type AvatarUploadPhase = { phase: 'idle' } | { phase: 'uploading'; percent: number } | { phase: 'saving' };

export interface AvatarUpload {
  progress: AvatarUploadPhase;
  /** Why the last change failed, in the spec's words; null after a success. */
  problem: string | null;
  upload(file: File): Promise<void>;
  remove(): Promise<void>;
}

/**
 * Changing the profile picture: checked in the browser first, then a presigned upload
 * straight to storage with its progress, then PATCH /me attaches the uploaded key (the
 * server checks the object again before it does).
 */
export function useAvatarUpload(): AvatarUpload {
  const api = useApi();
  const { updateProfile } = useAuth();
  const toast = useToast();
  const [progress, setProgress] = useState<AvatarUploadPhase>({ phase: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);

  async function saveProfileImage(change: () => Promise<string | null>) {
    setProblem(null);
    try {
      const profileImage = await change();
      setProgress({ phase: 'saving' });
      await updateProfile({ profileImage });
      toast.success(MSG.profile.updated);
    } catch (error) {
      setProblem(error instanceof UploadFailedError ? error.message : apiErrorText(error, MSG.profile.updateFailed));
    }
    setProgress({ phase: 'idle' });
  }

  async function upload(file: File) {
    const refusal = imageFileProblem(file);
    if (refusal) {
      setProblem(refusal);
      return;
    }
    await saveProfileImage(async () => {
      setProgress({ phase: 'uploading', percent: 0 });
      const ticket = await requestImageUpload(api, { purpose: 'avatar', fileName: file.name, contentType: file.type, size: file.size });
      await uploadWithTicket(ticket, file, (percent) => setProgress({ phase: 'uploading', percent }));
      return ticket.key;
    });
  }

  const remove = () => saveProfileImage(async () => null);

  return { progress, problem, upload, remove };
}
