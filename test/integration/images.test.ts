import { GetObjectTaggingCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { UPLOAD_STATE_TAG } from '../../functions/lib/images.js';
import { ENV } from '../../functions/routes.js';
import type { JobSummary, OwnProfile, Page } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
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

  /** Uploads as the browser does, with the presigned POST's fields (the local S3 ignores the policy). */
  async function upload(presigned: Upload, body: Buffer, contentType = 'image/png') {
    const form = new FormData();
    for (const [name, value] of Object.entries(presigned.fields)) form.append(name, name === 'Content-Type' ? contentType : value);
    form.append('file', new Blob([new Uint8Array(body)], { type: contentType }), 'photo');
    const response = await fetch(presigned.url, { method: 'POST', body: form });
    expect(response.status).toBeLessThan(300);
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

    // A text file uploaded under an image policy, and a 6 MB "image": the local S3 accepts both.
    const text = (await presign(poster, 'job')).body;
    await upload(text, Buffer.from('not an image'), 'text/plain');
    const huge = (await presign(poster, 'job')).body;
    await upload(huge, Buffer.alloc(6 * 1024 * 1024, 1));
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
    const cases: Array<[string, Buffer, string]> = [
      ['an SVG with a script, stored as image/svg+xml under a PNG policy', svg, 'image/svg+xml'],
      ['an SVG with a script, stored as image/png', svg, 'image/png'],
      ['a PNG stored as image/jpeg', PNG, 'image/jpeg'],
      ['HTML stored as image/gif', Buffer.from('<html><script>alert(1)</script></html>'), 'image/gif'],
    ];
    for (const [what, body, storedType] of cases) {
      const presigned = (await presign(poster, 'job')).body;
      await upload(presigned, body, storedType);
      expect({ what, answer: (await attempt(presigned.key)).body.error }).toEqual({ what, answer: MSG.jobForm.notAnImage('Image 1') });
    }
    expect((await presign(poster, 'job', 'image/svg+xml')).body).toEqual({ error: MSG.jobForm.notAnImage('photo.png') });

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

    const s3 = new S3Client({ endpoint: stack().urls.s3, forcePathStyle: true });
    const { TagSet } = await s3.send(new GetObjectTaggingCommand({ Bucket: process.env[ENV.imagesBucket], Key: presigned.key }));
    expect(TagSet).toEqual([{ Key: UPLOAD_STATE_TAG.key, Value: UPLOAD_STATE_TAG.attached }]);
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
