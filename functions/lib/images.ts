import { randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { IMAGE_DISPOSITION, MAX_IMAGE_BYTES } from '../../shared/limits.js';
import { MSG } from '../../shared/messages.js';
import { env, optionalEnv } from './env.js';
import { badRequest } from './errors.js';
import { logger } from './logger.js';

/**
 * The S3 SDK, loaded on first use: the functions holding it (job and profile edits, uploads)
 * pay for evaluating it (~130 KB) when they touch an image, not at every cold start; in AWS it
 * is bundled beside them (PREBUNDLED_DEPENDENCIES in infra/constructs/app-function.ts).
 */
let s3Client: S3Client | undefined;
async function s3() {
  const sdk = await import('@aws-sdk/client-s3');
  s3Client ??= new sdk.S3Client({ forcePathStyle: optionalEnv('s3ForcePathStyle') === 'true' });
  return { client: s3Client, sdk };
}

export type ImagePurpose = 'job' | 'avatar';

/** Every upload lives under its uploader's id: `uploads/<userId>/<purpose>/<uuid>`. */
const uploadPrefix = (userId: string, purpose: ImagePurpose) => `uploads/${userId}/${purpose}/`;

/**
 * Every upload is tagged `upload-state=unattached` by its presigned POST and retagged
 * `attached` when a job or profile takes it; the bucket's lifecycle rule
 * (infra/stacks/data-stack.ts) expires uploads still unattached after a few days.
 */
export const UPLOAD_STATE_TAG = { key: 'upload-state', unattached: 'unattached', attached: 'attached' } as const;
const UNATTACHED_TAGGING = `<Tagging><TagSet><Tag><Key>${UPLOAD_STATE_TAG.key}</Key><Value>${UPLOAD_STATE_TAG.unattached}</Value></Tag></TagSet></Tagging>`;

export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export type AcceptedImageType = (typeof ACCEPTED_IMAGE_TYPES)[number];
export const isAcceptedImageType = (type: string): type is AcceptedImageType => (ACCEPTED_IMAGE_TYPES as readonly string[]).includes(type);

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
  const [{ createPresignedPost }, { client }] = await Promise.all([import('@aws-sdk/s3-presigned-post'), s3()]);
  const { url, fields } = await createPresignedPost(client, {
    Bucket: env('imagesBucket'),
    Key: key,
    Conditions: [
      ['content-length-range', 1, MAX_IMAGE_BYTES],
      ['eq', '$Content-Type', contentType],
      ['eq', '$Content-Disposition', IMAGE_DISPOSITION],
      ['eq', '$tagging', UNATTACHED_TAGGING],
    ],
    // Stored with the object, so S3 (and s3rver locally) serves it: opened directly, an
    // upload is downloaded, never rendered as a page.
    Fields: { 'Content-Type': contentType, 'Content-Disposition': IMAGE_DISPOSITION, tagging: UNATTACHED_TAGGING },
    Expires: 300,
  });
  return { url, fields, key };
}

/** The first bytes each accepted type starts with (RIFF....WEBP: WebP's four bytes of size are skipped). */
const MAGIC_NUMBERS: Record<AcceptedImageType, ReadonlyArray<{ offset: number; bytes: string }>> = {
  'image/jpeg': [{ offset: 0, bytes: 'ffd8ff' }],
  'image/png': [{ offset: 0, bytes: '89504e470d0a1a0a' }],
  'image/gif': [{ offset: 0, bytes: '474946383' }], // "GIF8" then 7a or 9a
  'image/webp': [
    { offset: 0, bytes: '52494646' }, // "RIFF"
    { offset: 8, bytes: '57454250' }, // "WEBP"
  ],
};
const SNIFFED_BYTES = 16;

/** The accepted type whose magic number `head` starts with, if any. */
export function sniffImageType(head: Uint8Array): AcceptedImageType | undefined {
  const hex = Buffer.from(head).toString('hex');
  return ACCEPTED_IMAGE_TYPES.find((type) => MAGIC_NUMBERS[type].every(({ offset, bytes }) => hex.startsWith(bytes, offset * 2)));
}

/**
 * The server's own check before a key is attached to anything: it must be the caller's
 * upload for this purpose, exist, be stored as one of the accepted image types, really start
 * with that type's magic number (one ranged GET of its first bytes), and be at most 5 MB.
 * (The presigned policy already says most of it, but a local S3 does not enforce policies,
 * a content type is only a claim, and trust is not a check.) A key that passes is tagged
 * attached, so the unattached-uploads lifecycle rule spares it.
 */
export async function verifyUploadedImage(userId: string, purpose: ImagePurpose, key: string, fileLabel: string): Promise<void> {
  if (!key.startsWith(uploadPrefix(userId, purpose)) || key.includes('..')) throw badRequest(MSG.jobForm.notAnImage(fileLabel));
  const { client, sdk } = await s3();
  const object = await client
    .send(new sdk.GetObjectCommand({ Bucket: env('imagesBucket'), Key: key, Range: `bytes=0-${SNIFFED_BYTES - 1}` }))
    .catch((error: Error) => {
      if (error.name === 'NotFound' || error.name === 'NoSuchKey') throw badRequest(MSG.jobForm.notUploaded(fileLabel));
      throw error;
    });
  // "bytes 0-15/12345": the whole object's size follows the slash.
  const size = Number(object.ContentRange?.split('/')[1] ?? object.ContentLength ?? 0);
  if (size > MAX_IMAGE_BYTES) throw badRequest(MSG.jobForm.imageTooLarge(fileLabel));
  const head = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
  const storedType = (object.ContentType ?? '').toLowerCase();
  if (!isAcceptedImageType(storedType) || sniffImageType(head) !== storedType) throw badRequest(MSG.jobForm.notAnImage(fileLabel));
  await client.send(
    new sdk.PutObjectTaggingCommand({
      Bucket: env('imagesBucket'),
      Key: key,
      Tagging: { TagSet: [{ Key: UPLOAD_STATE_TAG.key, Value: UPLOAD_STATE_TAG.attached }] },
    }),
  );
}

/** Removes objects no longer referenced; a failure is logged (an orphan object harms no one). */
export async function deleteImages(imageKeys: string[]): Promise<void> {
  if (imageKeys.length === 0) return;
  try {
    const { client, sdk } = await s3();
    await client.send(new sdk.DeleteObjectsCommand({ Bucket: env('imagesBucket'), Delete: { Objects: imageKeys.map((Key) => ({ Key })) } }));
  } catch (error) {
    logger.warn('images not deleted', { imageKeys, error });
  }
}

/**
 * Deletes every upload of one user and purpose (an account deletion's avatars, attached or
 * not), listed under their prefix; answers how many there were. Unlike deleteImages, a
 * failure is thrown: the caller must not report the images gone.
 */
export async function deleteUploadsOf(userId: string, purpose: ImagePurpose): Promise<number> {
  const { client, sdk } = await s3();
  let deleted = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: env('imagesBucket'), Prefix: uploadPrefix(userId, purpose), ContinuationToken: token }));
    const found = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
    if (found.length) await client.send(new sdk.DeleteObjectsCommand({ Bucket: env('imagesBucket'), Delete: { Objects: found } }));
    deleted += found.length;
    token = page.NextContinuationToken;
  } while (token);
  return deleted;
}

/** The URL a browser loads an image key from. */
export const imageUrl = (key: string) => `${env('imagesBaseUrl').replace(/\/$/, '')}/${key}`;
