import type { imageUploadRequestSchema } from '../../../../shared/schemas/job';
import type * as z from '../../../../shared/zod';
import type { ApiClient } from './client';

/** A presigned POST for one image: the form fields to send before the file, and the key to attach. */
export interface ImageUploadTicket {
  url: string;
  fields: Record<string, string>;
  key: string;
}

export const requestImageUpload = (api: ApiClient, request: z.input<typeof imageUploadRequestSchema>) =>
  api.post<ImageUploadTicket>('/uploads/images', request);
