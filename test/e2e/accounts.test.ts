import { describe, expect, it } from 'vitest';
import { DEMO_JOBS, DEMO_PASSWORD } from '../../infra/local/demo-data.js';
import { MSG } from '../../shared/messages.js';
import { LANDING_CATEGORY_CARDS } from '../../shared/categories.js';
import { useBrowser, webUrl } from './browser.js';
import { signedInPage } from './sign-in.js';
import {
  codeFromMailbox,
  DESKTOP,
  expectText,
  newAccount,
  PHONE,
  seriousAxeViolations,
  signUpAndVerify,
  submitSignIn,
} from './accounts-helpers.js';

const ADMIN = 'admin@oddjobs.test';
const POSTER = 'paula@oddjobs.test';
const WORKER = 'wendy@oddjobs.test';

/** A PNG signature followed by padding: S3 and the API look at the declared type and the size, not the pixels. */
const pngOfSize = (bytes: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(bytes - 8)]);

describe('accounts and the app shell in a browser', () => {
  const browser = useBrowser();

  async function openPage(viewport: { width: number; height: number } = DESKTOP) {
    const context = await browser().newContext({ viewport });
    return { context, page: await context.newPage() };
  }

  async function openSignedIn(email: string, viewport: { width: number; height: number } = DESKTOP) {
    const context = await browser().newContext({ viewport });
    return { context, page: await signedInPage(context, email) };
  }

  it('signs up a worker from the landing page, verifies with the mailed code, and welcomes them on the worker dashboard', async () => {
    const { context, page } = await openPage();
    const worker = newAccount('worker', 'Wanda Walker');

    await page.goto(webUrl('/'));
    await page.getByRole('link', { name: 'I Want to Earn Money' }).click();
    await page.waitForURL(/\/sign-up\?role=worker$/);
    await signUpAndVerify(page, worker);

    // Verification hands the address on: the sign-in form starts with it.
    expect(await page.getByLabel('Email').inputValue()).toBe(worker.email);
    await submitSignIn(page, worker.email, worker.password);
    await page.waitForURL(/\/worker-dashboard\?welcome=true$/);
    await expectText(page, 'Welcome to OddJobs, Wanda!');

    // The worker's header: Find Jobs, Dashboard, Messages, and a menu with the initials.
    const mainNav = page.getByRole('navigation', { name: 'Main' });
    expect(await mainNav.getByRole('link').allInnerTexts()).toEqual(['Find Jobs', 'Dashboard']);
    expect(await page.getByRole('link', { name: 'Messages' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Account menu for Wanda Walker' }).innerText()).toBe('WW');

    // Dismissing the banner removes the query, so a reload does not greet again.
    await page.getByRole('button', { name: 'Dismiss welcome message' }).click();
    await page.waitForURL(/\/worker-dashboard$/);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByText('Welcome to OddJobs, Wanda!').count()).toBe(0);
    await context.close();
  });

  it('signs up a poster, who lands on the poster dashboard and whose logo leads there', async () => {
    const { context, page } = await openPage();
    const poster = newAccount('poster', 'Pat Poster');

    await signUpAndVerify(page, poster);
    await submitSignIn(page, poster.email, poster.password);
    await page.waitForURL(/\/poster-dashboard\?welcome=true$/);
    await expectText(page, 'Welcome to OddJobs, Pat!');

    const mainNav = page.getByRole('navigation', { name: 'Main' });
    expect(await mainNav.getByRole('link').allInnerTexts()).toEqual(['Dashboard', 'Post Job']);
    expect(await page.getByRole('link', { name: 'OddJobs', exact: true }).getAttribute('href')).toBe('/poster-dashboard');

    // Posters have no earnings page in their menu.
    await page.getByRole('button', { name: 'Account menu for Pat Poster' }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Profile', 'Dashboard', 'Messages', 'Notification Settings', 'Sign Out']);
    // Their email and push choices are one click away.
    await page.getByRole('menuitem', { name: 'Notification Settings' }).click();
    await page.waitForURL(/\/notification-settings$/);
    await page.getByRole('heading', { level: 1, name: 'Notification Settings' }).waitFor();
    await page.getByRole('button', { name: MSG.location.savePreferences }).waitFor();
    await context.close();
  });

  it('offers the admin account type as unavailable once the admin exists; the admin lands on the admin dashboard with the Admin Tools bar', async () => {
    const { context, page } = await openPage();

    // The footer's Admin link preselects the role, which the seeded admin has taken.
    await page.goto(webUrl('/'));
    await page.getByRole('contentinfo').getByRole('link', { name: 'Admin' }).click();
    // A client-side navigation: the landing page's own load may still be under way (its images).
    await page.waitForURL(/\/sign-up\?role=admin$/, { waitUntil: 'commit' });
    const adminOption = page.getByLabel('Account Type').locator('option[value="admin"]');
    await expect.poll(() => adminOption.innerText()).toBe('Admin (Unavailable)');
    expect(await adminOption.isDisabled()).toBe(true);

    await page.goto(webUrl('/sign-in'));
    await submitSignIn(page, ADMIN, DEMO_PASSWORD);
    await page.waitForURL(/\/admin-dashboard$/);
    const adminBar = page.getByRole('region', { name: 'Admin Tools', exact: true });
    await adminBar.waitFor();
    expect(await adminBar.innerText()).toContain('Admin Mode Active');
    expect(await page.getByRole('link', { name: 'OddJobs', exact: true }).getAttribute('href')).toBe('/');

    await page.getByRole('button', { name: 'Account menu for Avery Admin' }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Profile', 'Messages', 'Notification Settings', 'Admin Dashboard', 'Sign Out']);
    expect(await page.getByText(ADMIN).first().isVisible()).toBe(true);
    await page.getByRole('menuitem', { name: 'Notification Settings' }).click();
    await page.waitForURL(/\/notification-settings$/);
    await page.getByRole('button', { name: MSG.location.savePreferences }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Avery Admin' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(webUrl('/'));
    await page.getByRole('link', { name: 'Sign Up', exact: true }).waitFor();
    await context.close();
  });

  it('brings a signed-out visitor back to the page they came from after signing in, and guards pages by role', async () => {
    const { context, page } = await openPage();

    await page.goto(webUrl('/profile'));
    await page.waitForURL(/\/sign-in$/);
    await submitSignIn(page, WORKER, DEMO_PASSWORD);
    await page.waitForURL(/\/profile$/);
    await page.getByRole('heading', { level: 1, name: 'Wendy Worker' }).waitFor();

    // Already signed in: the sign-in screen moves on to the dashboard.
    await page.goto(webUrl('/sign-in'));
    await page.waitForURL(/\/worker-dashboard$/);

    // A worker may open worker pages, and is sent away from the admin's.
    await page.goto(webUrl('/worker-onboarding'));
    await page.getByRole('heading', { level: 1, name: 'Get Started' }).waitFor();
    await page.goto(webUrl('/admin/users'));
    await page.waitForURL(webUrl('/'));
    await expectText(page, MSG.auth.insufficientPermissions);
    await context.close();

    // Earnings tell signed-out visitors to sign in, and sign-in comes back to them.
    const visitor = await openPage();
    await visitor.page.goto(webUrl('/worker-earnings'));
    await visitor.page.getByRole('heading', { level: 1, name: 'Please sign in to view your earnings' }).waitFor();
    await visitor.page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
    await submitSignIn(visitor.page, WORKER, DEMO_PASSWORD);
    await visitor.page.waitForURL(/\/worker-earnings$/);
    await visitor.page.getByRole('heading', { level: 1, name: 'My Earnings' }).waitFor();
    await visitor.context.close();
  });

  it('limits sign-in attempts per email and says so', async () => {
    const { context, page } = await openPage();
    // An account of its own: it stays locked for 15 minutes.
    const worker = newAccount('worker', 'Lou Lockout');
    await signUpAndVerify(page, worker);
    const signInButton = page.getByRole('button', { name: 'Sign In', exact: true });
    for (let attempt = 1; attempt <= 5; attempt++) {
      await submitSignIn(page, worker.email, `wrong-password-${attempt}`);
      await expectText(page, 'Invalid email or password. Please check your credentials and try again.');
      await signInButton.waitFor();
    }
    // The sixth attempt is refused even with the right password.
    await submitSignIn(page, worker.email, worker.password);
    await expectText(page, MSG.auth.tooManySignIns);
    expect(page.url()).toBe(webUrl('/sign-in'));
    await context.close();
  });

  it('resets a forgotten password with the code from the mailbox', async () => {
    const { context, page } = await openPage();
    const worker = newAccount('worker', 'Remy Reset');
    await signUpAndVerify(page, worker);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    expect(await page.getByLabel('Email').inputValue()).toBe(worker.email);
    await page.getByRole('button', { name: 'Send Reset Code' }).click();

    const newPassword = 'another-good-password-2';
    await page.getByLabel('Reset Code').fill('000000');
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill('something-else-3');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectText(page, MSG.auth.passwordsDoNotMatch);

    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expectText(page, MSG.verify.invalidCode);

    await page.getByLabel('Reset Code').fill(await codeFromMailbox(context, worker.email));
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.waitForURL(/\/sign-in$/);
    await expectText(page, 'Password reset successfully! You can now sign in with your new password.');

    await submitSignIn(page, worker.email, worker.password);
    await expectText(page, 'Invalid email or password. Please check your credentials and try again.');
    await submitSignIn(page, worker.email, newPassword);
    await page.waitForURL(/\/worker-dashboard$/);
    await context.close();
  });

  it('edits the profile: skills added with Enter or Add, trimmed, once each, at most 20, removed by click; the bio counts; saved values survive a reload', async () => {
    const { context, page } = await openPage();
    const worker = newAccount('worker', 'Sam Skills');
    await signUpAndVerify(page, worker);
    await submitSignIn(page, worker.email, worker.password);
    await page.waitForURL(/\/worker-dashboard/);

    await page.goto(webUrl('/profile'));
    await page.getByRole('heading', { level: 1, name: 'Sam Skills' }).waitFor();
    // The job history and the ratings arrive after the heading.
    for (const text of ['Recently joined', 'No ratings yet', 'Not Connected', 'Job History', 'No jobs yet.']) {
      await expect.poll(() => page.getByText(text, { exact: true }).count(), { message: text }).toBeGreaterThan(0);
    }

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');

    const bio = 'Reliable mover with a van, free most weekends.';
    await page.getByLabel('Bio').fill(bio);
    await expectText(page, `${bio.length}/500 characters`);

    const skillInput = page.getByRole('textbox', { name: 'Skills', exact: true });
    await skillInput.fill('Moving');
    await skillInput.press('Enter');
    await skillInput.fill('  Yard work  ');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await skillInput.fill('moving');
    await skillInput.press('Enter');
    await expectText(page, 'moving is already in your skills');
    await skillInput.fill('Painting');
    await skillInput.press('Enter');
    const chips = page.getByRole('list', { name: 'Your skills' }).getByRole('button');
    expect(await chips.allInnerTexts()).toEqual(['Moving ×', 'Yard work ×', 'Painting ×']);
    await page.getByRole('button', { name: 'Remove Moving' }).click();
    expect(await chips.allInnerTexts()).toEqual(['Yard work ×', 'Painting ×']);

    // The name is required: nothing is sent without one.
    await page.getByLabel('Full Name').fill('  ');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectText(page, 'Name is required');
    await page.getByLabel('Full Name').fill('Sam Skillful');
    await page.getByLabel('Location').fill('Austin, TX');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectText(page, MSG.profile.updated);
    await page.getByRole('button', { name: 'Edit Profile' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Sam Skillful' }).waitFor();
    const about = page.getByRole('region', { name: 'About', exact: true });
    expect(await about.innerText()).toContain(bio);
    expect(await about.getByRole('listitem').allInnerTexts()).toEqual(['Yard work', 'Painting']);
    expect(await page.getByText('Austin, TX', { exact: true }).count()).toBeGreaterThan(0);

    // At most 20 skills; Cancel leaves the saved profile as it was.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    for (let n = 3; n <= 20; n++) {
      await skillInput.fill(`Skill ${n}`);
      await skillInput.press('Enter');
    }
    expect(await chips.count()).toBe(20);
    await skillInput.fill('One too many');
    await skillInput.press('Enter');
    await expectText(page, MSG.profile.maxSkills);
    expect(await chips.count()).toBe(20);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await about.getByRole('listitem').allInnerTexts()).toEqual(['Yard work', 'Painting']);
    await context.close();
  });

  it('uploads a profile picture with a progress bar, refuses non-images and files over 5 MB, keeps the picture after a reload; signs out everywhere', async () => {
    const { context, page } = await openPage();
    const poster = newAccount('poster', 'Ava Avatar');
    await signUpAndVerify(page, poster);
    await submitSignIn(page, poster.email, poster.password);
    await page.waitForURL(/\/poster-dashboard/);
    await page.goto(webUrl('/profile'));
    await page.getByRole('heading', { level: 1, name: 'Ava Avatar' }).waitFor();
    await expectText(page, 'You have not posted any jobs yet.');

    const fileInput = page.getByLabel('Upload photo');
    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expectText(page, MSG.jobForm.notAnImage('notes.txt'));
    await fileInput.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: pngOfSize(5 * 1024 * 1024 + 1) });
    await expectText(page, MSG.jobForm.imageTooLarge('huge.png'));

    // A slow connection, so the progress can be watched.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
    await fileInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: pngOfSize(600 * 1024) });
    const progress = page.getByRole('progressbar', { name: 'Uploading profile picture' });
    await progress.waitFor();
    const percent = Number(await progress.getAttribute('aria-valuenow'));
    expect(percent).toBeGreaterThanOrEqual(0);
    expect(percent).toBeLessThanOrEqual(100);
    await expectText(page, MSG.profile.updated);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const picture = page.locator('.profile-header img.avatar');
    await picture.waitFor();
    expect(await picture.getAttribute('src')).toMatch(/\/uploads\/[^/]+\/avatar\//);
    // The header's menu button shows the same picture.
    expect(await page.getByRole('button', { name: 'Account menu for Ava Avatar' }).locator('img').getAttribute('src')).toBe(
      await picture.getAttribute('src'),
    );

    await page.reload();
    await picture.waitFor();
    await page.getByRole('button', { name: 'Remove photo' }).click();
    await page.locator('.profile-header span.avatar', { hasText: 'AA' }).waitFor();

    // Sign Out Everywhere ends this session too.
    await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
    await page.waitForURL(webUrl('/'));
    await expectText(page, 'You have been signed out on all devices');
    await page.goto(webUrl('/profile'));
    await page.waitForURL(/\/sign-in$/);
    await context.close();
  });

  it("lists a poster's posted jobs on the profile: the first 5 and '... and N more'", async () => {
    const { context, page } = await openSignedIn(POSTER);
    const ownJobs = DEMO_JOBS.filter((job) => job.poster === POSTER);
    await page.goto(webUrl('/profile#payment-settings'));
    const posted = page.getByRole('region', { name: 'Posted Jobs', exact: true });
    await expect.poll(() => posted.getByRole('listitem').count()).toBe(5);
    // Other test files may post for Paula too: at least her demo jobs are there.
    const more = /\.\.\. and (\d+) more/.exec(await posted.innerText());
    expect(Number(more?.[1])).toBeGreaterThanOrEqual(ownJobs.length - 5);
    // The link's fragment brought the payment settings into view.
    const paymentSettings = page.locator('#payment-settings');
    await expect.poll(() => paymentSettings.evaluate((element) => element.getBoundingClientRect().top < window.innerHeight)).toBe(true);
    expect(await paymentSettings.getByRole('heading', { name: 'Payment Settings' }).count()).toBe(1);
    await context.close();
  });

  it('opens the user menu and moves through it with the keyboard', async () => {
    const { context, page } = await openSignedIn(WORKER);
    // The dashboard's heading takes the focus when it appears: start once it has.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    const toggle = page.getByRole('button', { name: 'Account menu for Wendy Worker' });
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());

    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual([
      'Profile',
      'Dashboard',
      'My Earnings',
      'Messages',
      'Notification Settings',
      'Sign Out',
    ]);
    expect(await focusedText()).toBe('Profile');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText()).toBe('Dashboard');
    await page.keyboard.press('End');
    expect(await focusedText()).toBe('Sign Out');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText()).toBe('Profile');
    await page.keyboard.press('ArrowUp');
    expect(await focusedText()).toBe('Sign Out');

    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Account menu for Wendy Worker');

    // ArrowUp opens on the last item; a followed link closes the menu.
    await page.keyboard.press('ArrowUp');
    expect(await focusedText()).toBe('Sign Out');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await focusedText()).toBe('My Earnings');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/worker-earnings$/);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // The new page's heading takes the focus.
    await expect.poll(() => focusedText()).toBe('My Earnings');
    await context.close();
  });

  it('shows what each landing category card pays and links it to the jobs section filtered to its category', async () => {
    const { context, page } = await openPage();
    await page.goto(webUrl('/'));
    // Every card names a range from the jobs paid for in its category (the demo has some in each).
    const cards = page.locator('.category-card');
    await expect.poll(() => cards.locator('.category-card__earnings').allInnerTexts()).toEqual(LANDING_CATEGORY_CARDS.map(() => expect.stringMatching(/^\$\d+–\$\d+ per job$/)));
    await page.getByRole('link', { name: /^Home Cleaning Hot \$\d+–\$\d+ per job$/ }).click();
    await page.waitForURL(/\/\?category=Cleaning#jobs$/);
    const jobs = page.locator('#jobs');
    const cleaning = DEMO_JOBS.filter((job) => job.category === 'Cleaning');
    await expect.poll(() => jobs.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(
      expect.arrayContaining(cleaning.map((job) => job.title)),
    );
    expect(await jobs.getByText(DEMO_JOBS.find((job) => job.category === 'Moving')!.title).count()).toBe(0);
    await context.close();
  });

  it('uses the mobile menu at 390 px: visitors get /signin and /signup, admins their sections, Escape closes it', async () => {
    const visitor = await openPage(PHONE);
    const page = visitor.page;
    await page.goto(webUrl('/'));
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    await menuButton.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    const links = menu.getByRole('link');
    expect(await links.allInnerTexts()).toEqual(['Find Jobs', 'Post Job', 'Sign In', 'Sign Up']);
    expect(await menu.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/signin');
    expect(await menu.getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/signup');
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Menu');
    await menuButton.click();
    await menu.getByRole('link', { name: 'Sign Up' }).click();
    await page.waitForURL(/\/signup$/);
    await page.getByRole('heading', { level: 1, name: 'Create Your Account' }).waitFor();
    expect(await menu.isVisible()).toBe(false);
    await visitor.context.close();

    const admin = await openSignedIn(ADMIN, PHONE);
    await admin.page.getByRole('button', { name: 'Menu', exact: true }).click();
    const adminMenu = admin.page.getByRole('navigation', { name: 'Mobile' });
    expect(await adminMenu.getByRole('link').allInnerTexts()).toEqual([
      'Dashboard',
      'Find Jobs',
      'Admin: Users',
      'Admin: Jobs',
      'Admin: Categories',
      'Admin: Reports',
      'Profile Settings',
      'Notification Settings',
    ]);
    expect(await adminMenu.getByRole('link', { name: 'Admin: Reports' }).getAttribute('href')).toBe('/admin/reports');
    await adminMenu.getByRole('link', { name: 'Notification Settings' }).click();
    await admin.page.waitForURL(/\/notification-settings$/);
    await admin.page.getByRole('button', { name: MSG.location.savePreferences }).waitFor();
    await admin.page.getByRole('button', { name: 'Menu', exact: true }).click();
    await adminMenu.getByRole('link', { name: 'Profile Settings' }).click();
    await admin.page.waitForURL(/\/profile$/);
    await admin.page.getByRole('button', { name: 'Menu', exact: true }).click();
    await adminMenu.getByRole('button', { name: 'Sign Out' }).click();
    await admin.page.waitForURL(webUrl('/'));
    await admin.page.getByRole('link', { name: 'I Want to Earn Money' }).waitFor();
    await admin.context.close();

    // Landscape phones get the mobile layout too; a desktop window does not.
    for (const [viewport, mobile] of [
      [{ width: 844, height: 390 }, true],
      [{ width: 820, height: 1180 }, false],
      [DESKTOP, false],
    ] as const) {
      const opened = await openPage(viewport);
      await opened.page.goto(webUrl('/terms-of-service'));
      await opened.page.getByRole('heading', { level: 1 }).waitFor();
      expect(await opened.page.getByRole('button', { name: 'Menu', exact: true }).isVisible(), `${viewport.width}x${viewport.height}`).toBe(mobile);
      expect(await opened.page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(!mobile);
      await opened.context.close();
    }
  });

  it('shows the legal pages with their numbered sections and the 404 page', async () => {
    const { context, page } = await openPage();
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());

    await page.goto(webUrl('/terms-of-service'));
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await expectText(page, `Last updated: ${today}`);
    const terms = await page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts();
    expect(terms).toHaveLength(15);
    expect(terms[0]).toMatch(/^1\. /);
    expect(terms[14]).toMatch(/^15\. /);

    await page.goto(webUrl('/privacy-policy'));
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await expectText(page, `Last updated: ${today}`);
    const sections = await page.locator('.legal__section h2').allInnerTexts();
    expect(sections).toHaveLength(13);
    expect(sections[12]).toMatch(/^13\. /);
    expect(await page.getByRole('complementary', { name: 'Your Trust Matters' }).isVisible()).toBe(true);

    await page.goto(webUrl('/no-such-page'));
    await page.getByRole('heading', { level: 1, name: MSG.notFoundPage }).waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(webUrl('/'));
    await context.close();
  });

  for (const viewport of [DESKTOP, PHONE]) {
    it(`has no serious or critical accessibility violation on the account and shell pages at ${viewport.width} px`, async () => {
      const publicPages = ['/', '/sign-in', '/sign-up', '/verify-email', '/forgot-password', '/terms-of-service', '/privacy-policy', '/no-such-page'];
      const found: string[] = [];
      const visitor = await openPage(viewport);
      for (const path of publicPages) {
        await visitor.page.goto(webUrl(path));
        await visitor.page.getByRole('heading', { level: 1 }).waitFor();
        // The job grid has finished loading (its skeleton is gone).
        await expect.poll(() => visitor.page.locator('.job-card--skeleton').count()).toBe(0);
        found.push(...(await seriousAxeViolations(visitor.page)).map((line) => `${path} ${line}`));
      }
      if (viewport === PHONE) {
        await visitor.page.getByRole('button', { name: 'Menu', exact: true }).click();
        found.push(...(await seriousAxeViolations(visitor.page)).map((line) => `mobile menu ${line}`));
      }
      await visitor.context.close();

      // The profile, then with the edit form and the user menu open.
      const poster = await openSignedIn(POSTER, viewport);
      await poster.page.goto(webUrl('/profile'));
      await poster.page.getByRole('heading', { level: 1, name: 'Paula Poster' }).waitFor();
      await expect.poll(() => poster.page.getByRole('region', { name: 'Posted Jobs', exact: true }).getByRole('listitem').count()).toBe(5);
      found.push(...(await seriousAxeViolations(poster.page)).map((line) => `/profile ${line}`));
      await poster.page.getByRole('button', { name: 'Edit Profile' }).click();
      await poster.page.getByRole('button', { name: 'Account menu for Paula Poster' }).click();
      found.push(...(await seriousAxeViolations(poster.page)).map((line) => `/profile editing ${line}`));
      await poster.context.close();
      expect(found).toEqual([]);
    });
  }
});
