import { MAX_IMAGE_BYTES } from '../../../../shared/limits';
import { MSG } from '../../../../shared/messages';
import type { ImageUploadTicket } from './request-image-upload';

/** The spec's refusal for a file the browser can already tell is wrong, or null when it may go up. */
export function imageFileProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return MSG.jobForm.notAnImage(file.name);
  if (file.size > MAX_IMAGE_BYTES) return MSG.jobForm.imageTooLarge(file.name);
  return null;
}

/** Thrown when the storage service refused the upload or could not be reached. */
export class UploadFailedError extends Error {
  constructor(readonly status: number) {
    super(MSG.jobForm.uploadFailed);
    this.name = 'UploadFailedError';
  }
}

/**
 * Sends a file with a presigned POST (the ticket's form fields first, then the file, as S3
 * requires). XMLHttpRequest rather than fetch, because only it reports upload progress.
 */
export function uploadWithTicket(ticket: ImageUploadTicket, file: File, onProgress: (percent: number) => void): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  form.append('file', file);

  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('load', () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(100);
        resolve();
      } else {
        reject(new UploadFailedError(request.status));
      }
    });
    request.addEventListener('error', () => reject(new UploadFailedError(0)));
    request.open('POST', ticket.url);
    request.send(form);
  });
}
