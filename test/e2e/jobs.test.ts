import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { Page, WebSocketRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../shared/messages.js';
import { callApi, idTokenOf, postPaidJob } from './api-helpers.js';
import { useBrowser, webUrl } from './browser.js';
import { deleteFromDashboard, fillJobForm, toastShown } from './jobs-helpers.js';
import { TEST_CARDS, payByCard } from './payments-helpers.js';
import { signedInPage } from './sign-in.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A real PNG of one colour, so the browser decodes it and the server sees an image. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const png = (name: string, colour: [number, number, number]) => ({ name, mimeType: 'image/png', buffer: solidPng(40, 30, colour) });

/** Waits for what the browser shows: pages, pushes and uploads take a moment on the local stack. */

/** Every visible <img> named `name` has finished loading real pixels. */
async function imagesLoaded(page: Page, name: RegExp): Promise<number> {
  const images = page.getByRole('img', { name });
  return images.evaluateAll((elements) => elements.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0).length);
}

describe('jobs in a browser', () => {
  const browser = useBrowser();

  it('posts a job with two photos, which a worker on /dashboard sees arrive, change and go without reloading', async () => {
    const title = `Hang a gallery wall ${randomUUID().slice(0, 6)}`;
    const newTitle = `${title} (eight frames)`;

    // A worker on a phone watches the signed-in job board.
    const workerContext = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const board = await signedInPage(workerContext, 'wendy@oddjobs.test');
    await board.goto(webUrl('/dashboard'));
    await expect.poll(() => board.locator('.job-grid > li').count()).toBeGreaterThan(0);

    // A poster fills in the form; the photo picker refuses what it must.
    const posterContext = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const poster = await signedInPage(posterContext, 'paula@oddjobs.test');
    await poster.goto(webUrl('/post-job'));
    await poster.getByLabel('Job Title').fill(title);
    await poster.getByLabel('Job Title').press('Tab');
    await poster.getByLabel('Job Title').fill('');
    await poster.getByLabel('Job Title').press('Tab');
    await expect.poll(() => poster.getByText(MSG.jobForm.titleRequired).count()).toBe(1);
    await fillJobForm(poster, title);
    await expect.poll(() => poster.getByText(MSG.jobForm.titleRequired).count()).toBe(0);
    // $60.00 + the $8.40 fee (14%) = $68.40, shown before posting.
    await expect.poll(() => poster.getByText('$68.40').count()).toBeGreaterThan(0);

    const photos = poster.getByLabel('Photos', { exact: true });
    await photos.setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') },
      { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) },
      png('front.png', [200, 60, 60]),
      png('side.png', [60, 120, 200]),
    ]);
    await expect.poll(() => poster.getByText(MSG.jobForm.notAnImage('notes.txt')).count()).toBe(1);
    expect(await poster.getByText(MSG.jobForm.imageTooLarge('huge.png')).count()).toBe(1);
    await expect.poll(() => imagesLoaded(poster, /^(front|side)\.png$/)).toBe(2);
    await photos.setInputFiles([png('a.png', [1, 1, 1]), png('b.png', [2, 2, 2]), png('c.png', [3, 3, 3]), png('d.png', [4, 4, 4])]);
    await expect.poll(() => poster.getByText(MSG.jobForm.remainingImages(3)).count()).toBe(1);
    expect(await poster.getByRole('img', { name: 'a.png' }).count()).toBe(0);

    // Neither side asks for a job it cannot read while it opens (the draft is the poster's alone until paid).
    const notFound: string[] = [];
    for (const page of [poster, board]) page.on('response', (response) => void (response.status() === 404 && notFound.push(response.url())));
    await poster.getByRole('button', { name: 'Post Job' }).click();
    await payByCard(poster, TEST_CARDS.succeeds);
    await poster.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    const jobPath = new URL(poster.url()).pathname;
    await expect.poll(toastShown(poster, MSG.jobs.posted)).toBe(1);
    await expect.poll(() => imagesLoaded(poster, /photo \d of 2$/)).toBe(2);
    // The owner sees the street address.
    expect(await poster.getByText('77 Rainey St, Austin, TX').count()).toBe(1);

    // The worker's board shows it without a reload.
    await expect.poll(() => board.getByRole('link', { name: title }).count()).toBe(1);
    await expect.poll(toastShown(board, MSG.jobs.newJobLive)).toBe(1);
    expect(notFound).toEqual([]);

    // The worker's view of the job: both photos, and the city and state only.
    const detail = await workerContext.newPage();
    await detail.goto(webUrl(jobPath));
    await expect.poll(() => detail.getByRole('heading', { level: 1, name: title }).count()).toBe(1);
    await expect.poll(() => imagesLoaded(detail, /photo \d of 2$/)).toBe(2);
    expect(await detail.getByText('Austin, TX').count()).toBeGreaterThan(0);
    expect(await detail.getByText('77 Rainey St').count()).toBe(0);
    expect(await detail.getByText(MSG.jobs.paymentUponCompletion).count()).toBe(1);
    await detail.close();

    // The poster edits it from the dashboard: a new title, one photo fewer.
    await poster.goto(webUrl('/poster-dashboard'));
    await poster.getByRole('button', { name: `Edit ${title}` }).click();
    await expect.poll(() => poster.getByRole('heading', { level: 1, name: 'Edit Job' }).count()).toBe(1);
    await expect.poll(() => poster.getByLabel('Street Address').inputValue()).toBe('77 Rainey St');
    expect(await poster.getByLabel('Payment ($)').inputValue()).toBe('60.00');
    await poster.getByRole('button', { name: 'Remove Photo 2' }).click();
    await poster.getByLabel('Job Title').fill(newTitle);
    await poster.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(toastShown(poster, MSG.jobs.updated)).toBe(1);
    await expect.poll(() => poster.getByRole('button', { name: `Edit ${newTitle}` }).count()).toBe(1);
    // Focus is back on the Edit button that opened the form.
    expect(await poster.evaluate(() => document.activeElement?.textContent)).toBe(`Edit ${newTitle}`);

    await expect.poll(() => board.getByRole('link', { name: newTitle }).count()).toBe(1);
    expect(await board.getByRole('link', { name: title, exact: true }).count()).toBe(0);

    const edited = await workerContext.newPage();
    await edited.goto(webUrl(jobPath));
    await expect.poll(() => imagesLoaded(edited, /photo \d of 1$/)).toBe(1);
    await edited.close();

    // ... and deletes it, after confirming.
    await deleteFromDashboard(poster, newTitle);

    await expect.poll(() => board.getByRole('link', { name: newTitle }).count()).toBe(0);
    await expect.poll(toastShown(board, MSG.jobs.removedLive)).toBe(1);

    await posterContext.close();
    await workerContext.close();
  });

  it('catches the board up from its cursor when the live connection comes back, so pushes missed meanwhile are not lost', async () => {
    const title = `Patch a drywall hole ${randomUUID().slice(0, 6)}`;
    const workerContext = await browser().newContext();
    // The worker's socket runs through this route, which can swallow pushes and cut the line.
    let swallowPushes = false;
    const sockets: WebSocketRoute[] = [];
    await workerContext.routeWebSocket(/.*/, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) => {
        if (!swallowPushes) socket.send(message);
      });
      socket.onMessage((message) => server.send(message));
      sockets.push(socket);
    });
    const board = await signedInPage(workerContext, 'wendy@oddjobs.test');
    await board.goto(webUrl('/dashboard'));
    await expect.poll(() => board.locator('.job-grid > li').count()).toBeGreaterThan(0);
    await expect.poll(() => sockets.length).toBeGreaterThan(0);

    swallowPushes = true;
    const posterContext = await browser().newContext();
    const poster = await signedInPage(posterContext, 'omar@oddjobs.test');
    await poster.goto(webUrl('/post-job'));
    await fillJobForm(poster, title);
    await poster.getByRole('button', { name: 'Post Job' }).click();
    await payByCard(poster, TEST_CARDS.succeeds);
    await poster.waitForURL(/\/jobs\/[0-9a-f-]{36}$/);
    // The push was swallowed: the board cannot know.
    await board.waitForTimeout(1500);
    expect(await board.getByRole('link', { name: title }).count()).toBe(0);

    swallowPushes = false;
    const socketsBefore = sockets.length;
    await sockets.at(-1)!.close();
    await expect.poll(() => sockets.length).toBeGreaterThan(socketsBefore);
    await expect.poll(() => board.getByRole('link', { name: title }).count()).toBe(1);

    await deleteFromDashboard(poster, title);
    await posterContext.close();
    await workerContext.close();
  });

  it("subscribes again when API Gateway refuses the board's subscribe (throttled), so the board still shows a new job live", async () => {
    const workerContext = await browser().newContext();
    // The worker's socket runs through this route, which answers the first subscribe as a
    // throttled stage does: the message never reaches the function, a frame says so.
    const refused: string[] = [];
    await workerContext.routeWebSocket(/.*/, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) => socket.send(message));
      socket.onMessage((message) => {
        if (refused.length === 0 && typeof message === 'string' && (JSON.parse(message) as { action?: string }).action === 'subscribe') {
          refused.push(message);
          socket.send(JSON.stringify({ message: 'Too Many Requests', connectionId: 'throttled-connection', requestId: randomUUID() }));
          return;
        }
        server.send(message);
      });
    });
    const board = await signedInPage(workerContext, 'wendy@oddjobs.test');
    await board.goto(webUrl('/dashboard'));
    await expect.poll(() => board.locator('.job-grid > li').count()).toBeGreaterThan(0);
    await expect.poll(() => refused.length).toBe(1);

    const title = `Fix a squeaky gate ${randomUUID().slice(0, 6)}`;
    const posterToken = await idTokenOf('omar@oddjobs.test');
    const job = await postPaidJob(posterToken, title);
    await expect.poll(() => board.getByRole('link', { name: title }).count()).toBe(1);

    await callApi('DELETE', `/jobs/${job.id}`, posterToken);
    await workerContext.close();
  });

  it('searches and filters the landing grid, keeping both in the address', async () => {
    const context = await browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cards = () => page.locator('#jobs .job-grid > li');
    const count = () => page.locator('#jobs [role="status"].job-board__count').innerText();
    const search = page.getByRole('searchbox', { name: 'Search jobs' });
    const query = () => new URL(page.url()).search;
    /** Waits until the grid shows every title of `present` and none of `absent`. */
    const gridShows = (present: string[], absent: string[]) =>
      expect.poll(async () => {
        const shown = await page.locator('#jobs .job-card__link').allInnerTexts();
        return present.every((title) => shown.includes(title)) && !absent.some((title) => shown.includes(title));
      }).toBe(true);
    const [sofa, hedges, lawn, garage] = ['Move a sofa and two armchairs', 'Trim hedges along a driveway', 'Mow and edge a front and back lawn', 'Clean out a garage'];

    // A landing category card links here.
    await page.goto(webUrl('/?category=Yard%20Work#jobs'));
    await gridShows([hedges, lawn], [sofa]);
    expect(await page.getByRole('button', { name: 'Yard Work', pressed: true }).count()).toBe(1);
    expect(await count()).toBe(MSG.jobs.foundCount(await cards().count()));

    await page.getByRole('button', { name: 'All', exact: true }).click();
    // Jobs of other categories are back (which ones are on the first page depends on what the
    // suite's other files posted before this one).
    await expect.poll(async () => (await page.locator('#jobs .job-card__link').allInnerTexts()).some((title) => title !== hedges && title !== lawn)).toBe(true);
    expect(query()).toBe('');
    expect(await count()).toBe('');

    // Enter searches; words match the start of words ("hedge" finds "hedges").
    await search.fill('hedge');
    await search.press('Enter');
    await gridShows([hedges], [sofa]);
    expect(query()).toBe('?q=hedge');
    // A search is not a new page: focus stays in the box.
    expect(await search.evaluate((box) => box === document.activeElement)).toBe(true);
    expect(await count()).toBe(MSG.jobs.foundCount(await cards().count()));

    // Search and category together ("clean" is also in the hedge job's description).
    await search.fill('clean');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await gridShows([garage, hedges], []);
    await page.getByRole('button', { name: 'Cleaning', exact: true }).click();
    await gridShows([garage], [hedges]);
    expect(query()).toBe('?q=clean&category=Cleaning');

    // A search nothing matches.
    await search.fill('xylophone');
    await search.press('Enter');
    await expect.poll(() => page.getByText(MSG.jobs.noSearchResults).count()).toBe(1);
    expect(await page.getByText(MSG.jobs.tryAdjusting).count()).toBe(1);

    // The address opens the same board again.
    await page.reload();
    await expect.poll(() => search.inputValue()).toBe('xylophone');
    expect(await page.getByRole('button', { name: 'Cleaning', pressed: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Clear' }).click();
    await gridShows([garage], []);
    expect(await search.inputValue()).toBe('');
    expect(query()).toBe('?category=Cleaning');

    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('lets a worker save a job and find it in the saved-jobs card', async () => {
    const title = 'Walk a friendly golden retriever';
    const context = await browser().newContext({ viewport: { width: 1280, height: 900 } });
    const page = await signedInPage(context, 'marco@oddjobs.test');
    await page.goto(webUrl('/dashboard'));
    await page.getByRole('link', { name: title }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: title }).count()).toBe(1);

    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect.poll(() => save.isEnabled()).toBe(true);
    expect(await save.getAttribute('aria-pressed')).toBe('false');
    await save.click();
    await expect.poll(toastShown(page, MSG.savedJobs.saved)).toBe(1);
    expect(await page.getByRole('button', { name: 'Saved', pressed: true }).count()).toBe(1);

    await page.goto(webUrl('/worker-dashboard#saved-jobs'));
    const savedCard = page.getByRole('region', { name: 'Saved Jobs', exact: true });
    await expect.poll(() => savedCard.getByRole('link', { name: title, exact: true }).count()).toBe(1);

    await savedCard.getByRole('button', { name: `Remove ${title} from saved jobs` }).click();
    await expect.poll(toastShown(page, MSG.savedJobs.removed)).toBe(1);
    expect(await savedCard.getByRole('link', { name: title, exact: true }).count()).toBe(0);
    await context.close();
  });
});
