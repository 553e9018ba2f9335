import { randomUUID } from 'node:crypto';
import { AdminCreateUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, inject, it } from 'vitest';
import { MSG, signInErrorText } from '../../shared/messages.js';
import { ENV } from '../../functions/routes.js';
import { cognitoClient } from '../../infra/local/cognito.js';
import { codeFromMailbox, expectText, PHONE, seriousAxeViolations, submitSignIn } from './accounts-helpers.js';
import { useBrowser, webUrl } from './browser.js';

/**
 * A user invited as the deploy invites its admin (functions/people/deploy/admin-seat.ts): AdminCreateUser
 * without a password, so Cognito mails a temporary one, and the profile written beside it.
 */
async function invite(email: string, name: string): Promise<void> {
  const config = inject('runtimeConfig');
  const { User } = await cognitoClient(config.userPoolEndpoint ?? '').send(
    new AdminCreateUserCommand({
      UserPoolId: config.userPoolId,
      Username: email,
      DesiredDeliveryMediums: ['EMAIL'],
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'name', Value: name },
        { Name: 'custom:role', Value: 'worker' },
      ],
    }),
  );
  const table = inject('table');
  Object.assign(process.env, { AWS_ENDPOINT_URL_DYNAMODB: table.endpoint, [ENV.tableName]: table.name, AWS_REGION: config.region, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' });
  // The table client reads its endpoint when first imported: after the variables above.
  const { createProfileOnce, newProfile } = await import('../../functions/people/profiles.js');
  const id = User!.Attributes!.find((attribute) => attribute.Name === 'sub')!.Value!;
  await createProfileOnce(newProfile({ id, name, email, role: 'worker', now: new Date().toISOString() }));
}

describe("an invited user's first sign-in (the deploy's admin)", () => {
  const browser = useBrowser();

  it('signs in with the mailed temporary password, asks for a new one, and lands signed in; the temporary one stops working', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
    await invite(email, 'Ivy Invited');
    const context = await browser().newContext({ viewport: { width: 375, height: PHONE.height } });
    const page = await context.newPage();
    const temporaryPassword = await codeFromMailbox(context, email);

    await page.goto(webUrl('/sign-in'));
    await submitSignIn(page, email, temporaryPassword);
    await expectText(page, MSG.auth.newPasswordRequired);
    // Focus moves into the step, so a keyboard or screen-reader user is taken to it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The spec's password rules, checked in the browser before Cognito is asked.
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm New Password').fill('short');
    await page.keyboard.press('Enter');
    await expectText(page, MSG.auth.passwordTooShort);
    await page.getByLabel('New Password', { exact: true }).fill('my-own-password-1');
    await page.getByLabel('Confirm New Password').fill('my-own-password-2');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await expectText(page, MSG.auth.passwordsDoNotMatch);

    await page.getByLabel('Confirm New Password').fill('my-own-password-1');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.waitForURL(/\/worker-dashboard$/);
    await expect.poll(() => page.getByRole('button', { name: 'Account menu for Ivy Invited' }).isVisible()).toBe(true);

    // A fresh browser: the temporary password is refused, the chosen one signs in.
    const later = await browser().newContext();
    const again = await later.newPage();
    await again.goto(webUrl('/sign-in'));
    await submitSignIn(again, email, temporaryPassword);
    await expectText(again, signInErrorText('invalid login credentials'));
    await submitSignIn(again, email, 'my-own-password-1');
    await again.waitForURL(/\/worker-dashboard$/);
    await later.close();
    await context.close();
  });
});
