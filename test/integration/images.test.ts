import { GetObjectTaggingCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { describe, expect, it } from 'vitest';
import { UPLOAD_STATE_TAG } from '../../functions/lib/images.js';
import { ENV } from '../../functions/routes.js';
import type { JobSummary, OwnProfile, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { MAX_IMAGE_BYTES } from '../../shared/limits.js';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '../../shared/notifications.js';
import { api, createUser, useLocalStack, type TestUser } from '../support/local-stack.js';
import { createPoster, postPaidJob } from '../support/payments.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const form = {
  title: 'Paint a fence',
  description: 'White paint, one coat.',
  address: { street: '1 Congress Ave', city: 'Austin', state: 'TX' },
  payment: 6000,
  category: 'Home Projects',
  date: new Date().toISOString().slice(0, 10),
  duration: '3 hours',
};

interface Upload {
  url: string;
  fields: Record<string, string>;
  key: string;
}

describe('job images and avatars', () => {
  const stack = useLocalStack();

  async function presign(user: TestUser, purpose: 'job' | 'avatar', contentType = 'image/png', size = PNG.length) {
    return api<Upload>(stack(), 'POST', '/uploads/images', { token: user.idToken, body: { purpose, fileName: 'photo.png', contentType, size } });
  }

  /** Posts a file as the browser does, with the presigned POST's fields (some changed by `changes`), the file last. */
  function post(presigned: Upload, body: Buffer, changes: Record<string, string> = {}) {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...presigned.fields, ...changes })) form.append(name, value);
    form.append('file', new Blob([new Uint8Array(body)]), 'photo');
    return fetch(presigned.url, { method: 'POST', body: form });
  }

  /** Uploads a file that S3 accepts under its policy. */
  async function upload(presigned: Upload, body: Buffer) {
    const response = await post(presigned, body);
    expect(response.status).toBeLessThan(300);
  }

  const s3 = () => new S3Client({ endpoint: stack().urls.s3, forcePathStyle: true });

  /**
   * Stores an object under a key without its policy, as only something holding the bucket's
   * write permission could: S3 refuses such uploads through a presigned POST (tested below),
   * and the server's own checks must hold even so.
   */
  async function storeAroundPolicy(key: string, body: Buffer, contentType: string) {
    await s3().send(new PutObjectCommand({ Bucket: process.env[ENV.imagesBucket], Key: key, Body: body, ContentType: contentType }));
  }

  it('attaches uploaded images to a job, serves them, and deletes the ones an edit removes', async () => {
    const poster = await createPoster(stack());
    const uploads = [];
    for (let i = 0; i < 2; i++) {
      const { body } = await presign(poster, 'job');
      expect(body.key.startsWith(`uploads/${poster.userId}/job/`)).toBe(true);
      await upload(body, PNG);
      uploads.push(body);
    }
    const created = { body: await postPaidJob(stack(), poster, { ...form, images: uploads.map((u) => u.key) }) };
    expect(created.body.images).toHaveLength(2);
    const served = await fetch(created.body.images[0]!);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);

    const edited = await api<JobSummary>(stack(), 'PUT', `/jobs/${created.body.id}`, { token: poster.idToken, body: { ...form, images: [uploads[1]!.key] } });
    expect(edited.body.images).toHaveLength(1);
    expect((await fetch(created.body.images[0]!)).status).toBe(404);
    expect((await fetch(created.body.images[1]!)).status).toBe(200);

    await api(stack(), 'DELETE', `/jobs/${created.body.id}`, { token: poster.idToken });
    expect((await fetch(created.body.images[1]!)).status).toBe(404);
  });

  it('refuses non-images, oversized files and other users\' uploads on the server, even when the browser is bypassed', async () => {
    const [poster, other] = await Promise.all([createPoster(stack()), createPoster(stack())]);
    expect((await presign(poster, 'job', 'text/plain')).body).toEqual({ error: MSG.jobForm.notAnImage('photo.png') });
    expect((await presign(poster, 'job', 'image/png', 5 * 1024 * 1024 + 1)).body).toEqual({ error: MSG.jobForm.imageTooLarge('photo.png') });

    // A text file and a 6 MB "image" in the poster's own upload keys.
    const text = (await presign(poster, 'job')).body;
    await storeAroundPolicy(text.key, Buffer.from('not an image'), 'text/plain');
    const huge = (await presign(poster, 'job')).body;
    await storeAroundPolicy(huge.key, Buffer.alloc(6 * 1024 * 1024, 1), 'image/png');
    const theirs = (await presign(other, 'job')).body;
    await upload(theirs, PNG);

    const attempt = (images: string[]) => api<{ error: string }>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, images } });
    expect((await attempt([text.key])).body.error).toBe(MSG.jobForm.notAnImage('Image 1'));
    expect((await attempt([huge.key])).body.error).toBe(MSG.jobForm.imageTooLarge('Image 1'));
    expect((await attempt([theirs.key])).body.error).toBe(MSG.jobForm.notAnImage('Image 1'));
    expect((await attempt(['uploads/nobody/job/missing'])).status).toBe(400);
    expect((await attempt(Array.from({ length: 6 }, () => theirs.key))).body.error).toBe(MSG.jobForm.tooManyImages);
    expect((await api<{ items: JobSummary[] }>(stack(), 'GET', '/me/jobs', { token: poster.idToken })).body.items).toEqual([]);
  });

  it('accepts only real images of their stored type, and serves them as downloads (issue 15 #6)', async () => {
    const poster = await createPoster(stack());
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
    const attempt = (key: string) => api<{ error: string }>(stack(), 'POST', '/jobs', { token: poster.idToken, body: { ...form, images: [key] } });
    // Each is allowed by its policy: the claimed type is an accepted one, the bytes are not of it.
    const cases: Array<[string, Buffer, string]> = [
      ['an SVG with a script, stored as image/png', svg, 'image/png'],
      ['a PNG stored as image/jpeg', PNG, 'image/jpeg'],
      ['HTML stored as image/gif', Buffer.from('<html><script>alert(1)</script></html>'), 'image/gif'],
    ];
    for (const [what, body, storedType] of cases) {
      const presigned = (await presign(poster, 'job', storedType)).body;
      await upload(presigned, body);
      expect({ what, answer: (await attempt(presigned.key)).body.error }).toEqual({ what, answer: MSG.jobForm.notAnImage('Image 1') });
    }
    // An SVG is never presigned, and S3 refuses one posted under a PNG policy.
    expect((await presign(poster, 'job', 'image/svg+xml')).body).toEqual({ error: MSG.jobForm.notAnImage('photo.png') });
    const png = (await presign(poster, 'job')).body;
    expect((await post(png, svg, { 'Content-Type': 'image/svg+xml' })).status).toBe(403);

    const real = (await presign(poster, 'job')).body;
    await upload(real, PNG);
    const job = await postPaidJob(stack(), poster, { ...form, images: [real.key] });
    const served = await fetch(job.images[0]!);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-disposition')).toBe('attachment');
  });

  it('sets and replaces the avatar, deleting the old one', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const first = (await presign(worker, 'avatar')).body;
    await upload(first, PNG);
    const set = await api<OwnProfile>(stack(), 'PATCH', '/me', { token: worker.idToken, body: { profileImage: first.key } });
    expect(set.body.profileImage).toMatch(new RegExp(`${first.key}$`));

    const jobImage = (await presign(worker, 'job')).body;
    await upload(jobImage, PNG);
    expect((await api(stack(), 'PATCH', '/me', { token: worker.idToken, body: { profileImage: jobImage.key } })).status).toBe(400);

    const second = (await presign(worker, 'avatar')).body;
    await upload(second, PNG);
    await api(stack(), 'PATCH', '/me', { token: worker.idToken, body: { profileImage: second.key } });
    expect((await fetch(set.body.profileImage!)).status).toBe(404);
  });

  it('tags uploads unattached and retags them attached when a job takes them, for the lifecycle rule', async () => {
    const poster = await createPoster(stack());
    const { body: presigned } = await presign(poster, 'job');
    expect(presigned.fields.tagging).toContain(`<Key>${UPLOAD_STATE_TAG.key}</Key><Value>${UPLOAD_STATE_TAG.unattached}</Value>`);
    await upload(presigned, PNG);
    await postPaidJob(stack(), poster, { ...form, images: [presigned.key] });

    const { TagSet } = await s3().send(new GetObjectTaggingCommand({ Bucket: process.env[ENV.imagesBucket], Key: presigned.key }));
    expect(TagSet).toEqual([{ Key: UPLOAD_STATE_TAG.key, Value: UPLOAD_STATE_TAG.attached }]);
  });

  describe('the local S3 checks presigned POSTs as S3 does', () => {
    /** S3's XML error: its status, code and message. */
    async function refusal(response: Response) {
      const xml = await response.text();
      return { status: response.status, code: /<Code>(.*?)<\/Code>/.exec(xml)?.[1], message: /<Message>(.*?)<\/Message>/.exec(xml)?.[1] };
    }
    const policyFailed = (condition: string) => ({ status: 403, code: 'AccessDenied', message: `Invalid according to Policy: Policy Condition failed: ${condition}` });
    const stored = async (key: string) => (await fetch(`${process.env[ENV.imagesBaseUrl]}/${key}`)).status === 200;

    it('refuses an upload into another user\'s key, of another type, over 5 MB or with a field the policy does not name; stores nothing', async () => {
      const [poster, other] = await Promise.all([createPoster(stack()), createPoster(stack())]);
      const presigned = (await presign(poster, 'job')).body;
      const theirKey = `uploads/${other.userId}/job/${presigned.key.split('/').pop()}`;
      const cases: Array<[string, Promise<Response>, object]> = [
        ["another user's key", post(presigned, PNG, { key: theirKey }), policyFailed(`["eq", "$key", "${presigned.key}"]`)],
        ['another content type', post(presigned, PNG, { 'Content-Type': 'text/html' }), policyFailed('["eq", "$Content-Type", "image/png"]')],
        [
          'a file over 5 MB',
          post(presigned, Buffer.alloc(MAX_IMAGE_BYTES + 1, 1)),
          { status: 400, code: 'EntityTooLarge', message: 'Your proposed upload exceeds the maximum allowed size' },
        ],
        ['an empty file', post(presigned, Buffer.alloc(0)), { status: 400, code: 'EntityTooSmall', message: 'Your proposed upload is smaller than the minimum allowed size' }],
        ['an extra field', post(presigned, PNG, { 'x-amz-meta-owner': 'someone' }), { status: 403, code: 'AccessDenied', message: 'Invalid according to Policy: Extra input fields: x-amz-meta-owner' }],
      ];
      for (const [what, response, expected] of cases) expect({ what, answer: await refusal(await response) }).toEqual({ what, answer: expected });
      expect([await stored(presigned.key), await stored(theirKey)]).toEqual([false, false]);
      await upload(presigned, PNG);
      expect(await stored(presigned.key)).toBe(true);
    });

    it('refuses a tampered policy or signature, an unknown key and an expired policy', async () => {
      const poster = await createPoster(stack());
      const presigned = (await presign(poster, 'job')).body;
      const policy = JSON.parse(Buffer.from(presigned.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
      const roomier = { ...policy, conditions: policy.conditions.map((c) => (Array.isArray(c) && c[0] === 'content-length-range' ? [c[0], 1, 100 * 1024 * 1024] : c)) };
      const signature = presigned.fields['X-Amz-Signature']!;
      const mismatch = { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
      const cases: Array<[string, Record<string, string>, object]> = [
        ['a policy allowing 100 MB, with the original signature', { Policy: Buffer.from(JSON.stringify(roomier)).toString('base64') }, mismatch],
        ['another signature', { 'X-Amz-Signature': `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}` }, mismatch],
        [
          'a key S3 does not know',
          { 'X-Amz-Credential': presigned.fields['X-Amz-Credential']!.replace(/^[^/]+/, 'AKIAUNKNOWN') },
          { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' },
        ],
      ];
      for (const [what, changes, expected] of cases) expect({ what, answer: await refusal(await post(presigned, PNG, changes)) }).toEqual({ what, answer: expected });

      // Signed as the function signs, by a clock ten minutes behind: its five minutes are over.
      const late = new S3Client({ endpoint: stack().urls.s3, forcePathStyle: true, systemClockOffset: -10 * 60_000 });
      const expired = await createPresignedPost(late, { Bucket: process.env[ENV.imagesBucket]!, Key: presigned.key, Expires: 300 });
      expect(await refusal(await post({ ...expired, key: presigned.key }, PNG))).toEqual({ status: 403, code: 'AccessDenied', message: 'Invalid according to Policy: Policy expired.' });
      expect(await stored(presigned.key)).toBe(false);
    });
  });

  // The admin console and the location screen answer with image URLs too, so their functions
  // need images:read (a run-time gap the local stack hid until it gave each function only its
  // declared environment).
  it('lists and removes a flagged job with photos in the admin console', async () => {
    const [admin, poster, reporter] = await Promise.all([createUser(stack(), { role: 'admin' }), createPoster(stack()), createUser(stack(), { role: 'worker' })]);
    const { body: photo } = await presign(poster, 'job');
    await upload(photo, PNG);
    const job = await postPaidJob(stack(), poster, { ...form, images: [photo.key] });
    await stack().events.idle();

    const listed = await api<Page<JobSummary>>(stack(), 'GET', '/admin/jobs?status=open', { token: admin.idToken });
    expect(listed.status).toBe(200);
    expect(listed.body.items.find((item) => item.id === job.id)?.images).toEqual(job.images);

    expect((await api(stack(), 'POST', `/jobs/${job.id}/flags`, { token: reporter.idToken, body: { flagType: 'scam', reason: 'Asks for a deposit' } })).status).toBe(201);
    const removed = await api(stack(), 'POST', `/admin/flags/${job.id}/review`, { token: admin.idToken, body: { decision: 'removed', notes: 'Scam listing' } });
    expect(removed).toEqual({ status: 200, body: { decision: 'removed' } });
    await stack().events.idle();
  });

  it('saves the location and alert preferences of a user with an avatar', async () => {
    const worker = await createUser(stack(), { role: 'worker' });
    const { body: avatar } = await presign(worker, 'avatar');
    await upload(avatar, PNG);
    await api(stack(), 'PATCH', '/me', { token: worker.idToken, body: { profileImage: avatar.key } });

    const located = await api<OwnProfile>(stack(), 'PUT', '/me/location', { token: worker.idToken, body: { zip: '78701', timeZone: 'America/Chicago' } });
    expect(located.status).toBe(200);
    expect(located.body.profileImage).toMatch(new RegExp(`${avatar.key}$`));
    const preferences = await api<OwnProfile>(stack(), 'PUT', '/me/notification-preferences', {
      token: worker.idToken,
      body: { ...DEFAULT_NOTIFICATION_PREFERENCES, enabled: true },
    });
    expect(preferences.status).toBe(200);
  });
});
