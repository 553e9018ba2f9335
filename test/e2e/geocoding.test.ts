import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';

describe('geocoding failures in a browser', () => {
  const browser = useBrowser();

  it("tells the poster 'Address not found' on their job's page when geocoding cannot place its address, and no one else", async () => {
    const omar = await idTokenOf('omar@oddjobs.test');
    // No such city in Texas: the geocoder (the zip table locally, Amazon Location in AWS) finds nothing.
    const job = await postPaidJob(omar, `Hang a porch swing ${randomUUID().slice(0, 6)}`, undefined, { street: '1 Nowhere Ln', city: 'Zzyzxville', state: 'TX' });

    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedInPage(context, 'omar@oddjobs.test');
    const notice = page.getByRole('status').filter({ hasText: MSG.location.addressNotFound });
    // The geocoding runs on the job's posted event, a moment after the payment.
    await expect
      .poll(async () => {
        await page.goto(webUrl(`/jobs/${job.id}`));
        await page.getByRole('heading', { level: 1, name: job.title }).waitFor();
        return notice.count();
      })
      .toBe(1);
    expect(await notice.innerText()).toContain(MSG.location.addressNotFoundHint);

    // A worker viewing the job sees no such notice: it is the poster's to fix.
    const workerContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const wendy = await signedInPage(workerContext, 'wendy@oddjobs.test');
    await wendy.goto(webUrl(`/jobs/${job.id}`));
    await wendy.getByRole('heading', { level: 1, name: job.title }).waitFor();
    expect(await wendy.getByText(MSG.location.addressNotFound).count()).toBe(0);

    // Leaves the open grid as it was for the other files.
    await callApi('DELETE', `/jobs/${job.id}`, omar);
    await Promise.all([context.close(), workerContext.close()]);
  });
});
