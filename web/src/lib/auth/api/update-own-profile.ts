import type { OwnProfile } from '../../../../../shared/api';
import type { profileUpdateSchema } from '../../../../../shared/schemas/profile';
import type * as z from '../../../../../shared/zod';
import type { ApiClient } from '../../api/client';

/** The body of PATCH /me as the browser sends it (before the server sanitises it). */
export type ProfileUpdateRequest = z.input<typeof profileUpdateSchema>;

/** PATCH /me with the fields that changed; answers the whole updated profile. */
export const updateOwnProfile = (api: ApiClient, changes: ProfileUpdateRequest) => api.patch<OwnProfile>('/me', changes);
