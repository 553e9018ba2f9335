import { randomUUID } from 'node:crypto';
import { DeleteObjectsCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { MAX_IMAGE_BYTES } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { env, optionalEnv } from './env.js';
import { badRequest } from './errors.js';
import { logger } from './logger.js';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({ forcePathStyle: optionalEnv('s3ForcePathStyle') === 'true' }));

export type ImagePurpose = 'job' | 'avatar';

/** Every upload lives under its uploader's id: `uploads/<userId>/<purpose>/<uuid>`. */
const uploadPrefix = (userId: string, purpose: ImagePurpose) => `uploads/${userId}/${purpose}/`;

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;

export interface ImageUpload {
  url: string;
  fields: Record<string, string>;
  key: string;
}

/**
 * A short-lived presigned POST that S3 itself limits to one image of at most 5 MB of the
 * declared type, under the caller's own prefix.
 */
export async function presignImageUpload(userId: string, purpose: ImagePurpose, contentType: string): Promise<ImageUpload> {
  const key = `${uploadPrefix(userId, purpose)}${randomUUID()}`;
  const { url, fields } = await createPresignedPost(s3(), {
    Bucket: env('imagesBucket'),
    Key: key,
    Conditions: [
      ['content-length-range', 1, MAX_IMAGE_BYTES],
      ['eq', '$Content-Type', contentType],
    ],
    Fields: { 'Content-Type': contentType },
    Expires: 300,
  });
  return { url, fields, key };
}

/**
 * The server's own check before a key is attached to anything: it must be the caller's
 * upload for this purpose, exist, be an image and be at most 5 MB. (The presigned policy
 * already says so, but a local S3 does not enforce policies, and trust is not a check.)
 */
export async function verifyUploadedImage(userId: string, purpose: ImagePurpose, key: string, fileLabel: string): Promise<void> {
  if (!key.startsWith(uploadPrefix(userId, purpose)) || key.includes('..')) throw badRequest(MSG.jobForm.notAnImage(fileLabel));
  const head = await s3()
    .send(new HeadObjectCommand({ Bucket: env('imagesBucket'), Key: key }))
    .catch((error: Error) => {
      if (error.name === 'NotFound' || error.name === 'NoSuchKey') throw badRequest(MSG.jobForm.notUploaded(fileLabel));
      throw error;
    });
  if (!head.ContentType?.startsWith('image/')) throw badRequest(MSG.jobForm.notAnImage(fileLabel));
  if ((head.ContentLength ?? 0) > MAX_IMAGE_BYTES) throw badRequest(MSG.jobForm.imageTooLarge(fileLabel));
}

/** Removes objects no longer referenced; a failure is logged (an orphan object harms no one). */
export async function deleteImages(imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return;
  try {
    await s3().send(new DeleteObjectsCommand({ Bucket: env('imagesBucket'), Delete: { Objects: imageKeys.map((Key) => ({ Key })) } }));
  } catch (error) {
    logger.warn('images not deleted', { imageKeys, error });
  }
}

/** The URL a browser loads an image key from. */
export const imageUrl = (key: string) => `${env('imagesBaseUrl').replace(/\/$/, '')}/${key}`;
