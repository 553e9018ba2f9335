import { useState } from 'react';
import { MAX_JOB_IMAGES } from '../../../../../shared/limits';
import { MSG } from '../../../../../shared/messages';
import { requestImageUpload } from '../../../lib/api/request-image-upload';
import { imageFileProblem, uploadWithTicket } from '../../../lib/api/presigned-upload';
import { useApi } from '../../../lib/api/useApi';

/** An image the job already has (editing): its storage key and where it is shown from. */
export interface AttachedImage {
  key: string;
  url: string;
}

export type JobImage =
  | ({ id: string; kind: 'attached' } & AttachedImage)
  /** Picked in this form; `key` once uploaded, `progress` (0-100) while and after uploading. */
  | { id: string; kind: 'picked'; file: File; key: string | null; progress: number | null };

export interface JobImages {
  images: JobImage[];
  /** Why files of the last selection were refused, in the spec's words. */
  problems: string[];
  add(files: File[]): void;
  remove(id: string): void;
  /** Uploads the picked images not uploaded yet; resolves with every image's key, in order. */
  uploadAll(): Promise<string[]>;
}

/**
 * A job's photos while its form is open: the attached ones kept or dropped, new ones picked,
 * checked (type, size, count) and uploaded when the form is sent. Dropped attached images are
 * deleted by the server when the job is saved without them.
 */
export function useJobImages(attached: readonly AttachedImage[]): JobImages {
  const api = useApi();
  const [images, setImages] = useState<JobImage[]>(() => attached.map((image) => ({ id: image.key, kind: 'attached', ...image })));
  const [problems, setProblems] = useState<string[]>([]);

  const patchPicked = (id: string, patch: Partial<Extract<JobImage, { kind: 'picked' }>>) =>
    setImages((current) => current.map((image) => (image.id === id && image.kind === 'picked' ? { ...image, ...patch } : image)));

  function add(files: File[]): void {
    const remaining = MAX_JOB_IMAGES - images.length;
    if (files.length > remaining) {
      setProblems([MSG.jobForm.remainingImages(remaining)]);
      return;
    }
    const refusals = files.map(imageFileProblem).filter((text): text is string => text !== null);
    const accepted = files
      .filter((file) => imageFileProblem(file) === null)
      .map((file): JobImage => ({ id: crypto.randomUUID(), kind: 'picked', file, key: null, progress: null }));
    setProblems(refusals);
    setImages((current) => [...current, ...accepted]);
  }

  function remove(id: string): void {
    setImages((current) => current.filter((image) => image.id !== id));
    setProblems([]);
  }

  async function upload(image: Extract<JobImage, { kind: 'picked' }>): Promise<string> {
    const { file } = image;
    try {
      const ticket = await requestImageUpload(api, { purpose: 'job', fileName: file.name, contentType: file.type, size: file.size });
      patchPicked(image.id, { progress: 0 });
      await uploadWithTicket(ticket, file, (progress) => patchPicked(image.id, { progress }));
      patchPicked(image.id, { key: ticket.key, progress: 100 });
      return ticket.key;
    } catch (error) {
      patchPicked(image.id, { progress: null });
      throw error;
    }
  }

  // An image uploaded by an earlier, failed attempt keeps its key and is not sent again.
  const uploadAll = () => Promise.all(images.map((image) => (image.kind === 'attached' ? image.key : (image.key ?? upload(image)))));

  return { images, problems, add, remove, uploadAll };
}
