import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { describe, expect, it } from 'vitest';
import { checkPostUpload, S3Refusal } from '../../infra/local/s3-post-policy.js';

const credentials = { accessKeyId: 'AKIDUPLOADS', secretAccessKey: 'secret-of-uploads' };
const secretAccessKeyOf = (accessKeyId: string) => (accessKeyId === credentials.accessKeyId ? credentials.secretAccessKey : undefined);

/** The local S3's POST policy check on its own, with policies as @aws-sdk/s3-presigned-post signs them. */
describe('presigned POST policy check', () => {
  const client = new S3Client({ region: 'eu-west-1', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, credentials });

  async function formFor(key: string) {
    // A key ending in ${filename} is signed as a `starts-with` condition on its prefix.
    const { fields } = await createPresignedPost(client, {
      Bucket: 'bucket',
      Key: 'uploads/user-1/${filename}',
      Conditions: [['starts-with', '$Content-Type', 'image/']],
      Fields: { 'Content-Type': 'image/png' },
    });
    // Field names are case-insensitive in S3's form: the check sees them lower-cased.
    return { bucket: 'bucket', fields: new Map(Object.entries({ ...fields, key }).map(([name, value]) => [name.toLowerCase(), value])), file: new Blob(['png']) };
  }

  const refusal = (run: () => void) => {
    try {
      run();
      return undefined;
    } catch (error) {
      return error instanceof S3Refusal ? { status: error.status, code: error.code, message: error.message } : error;
    }
  };

  it('admits a key under a starts-with prefix, and refuses one outside it', async () => {
    const inside = await formFor('uploads/user-1/photo.png');
    expect(refusal(() => checkPostUpload(inside, secretAccessKeyOf))).toBeUndefined();
    const outside = await formFor('uploads/user-2/photo.png');
    expect(refusal(() => checkPostUpload(outside, secretAccessKeyOf))).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Invalid according to Policy: Policy Condition failed: ["starts-with", "$key", "uploads/user-1/"]',
    });
  });

  it('refuses an upload posted to another bucket than its policy names', async () => {
    const form = await formFor('uploads/user-1/photo.png');
    expect(refusal(() => checkPostUpload({ ...form, bucket: 'other' }, secretAccessKeyOf))).toMatchObject({ status: 403, code: 'AccessDenied' });
  });

  it('checks the signature with the secret of the key that signed, looked up in the credentials table', async () => {
    const form = await formFor('uploads/user-1/photo.png');
    expect(refusal(() => checkPostUpload(form, () => 'another-secret'))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    expect(refusal(() => checkPostUpload(form, () => undefined))).toMatchObject({ status: 403, code: 'InvalidAccessKeyId' });
  });

  it('refuses an anonymous POST (no policy) and one without its signature', async () => {
    const form = await formFor('uploads/user-1/photo.png');
    const without = (name: string) => ({ ...form, fields: new Map([...form.fields].filter(([field]) => field !== name)) });
    expect(refusal(() => checkPostUpload(without('policy'), secretAccessKeyOf))).toMatchObject({ status: 403, code: 'AccessDenied', message: 'Access Denied' });
    expect(refusal(() => checkPostUpload(without('x-amz-signature'), secretAccessKeyOf))).toMatchObject({ status: 400, code: 'InvalidArgument' });
  });
});
