import { createServer } from 'node:http';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import { listen } from '../../infra/local/http-util.js';
import { serveApiOnSite, serveRuntimeConfig } from '../../infra/local/web-preview.js';
import { runSmoke } from '../smoke/smoke.js';
import { adminSeatCreateEvent, invokeAdminSeat } from '../support/admin-seat.js';
import { api, createUser, useLocalStack } from '../support/local-stack.js';

describe('npm run smoke against the local stack', () => {
  const stack = useLocalStack();

  it("signs up two users and signs in the deploy's admin through the new-password step; photo, avatar, location, alerts, report, dispute and the job's whole life", async () => {
    // The admin as the deploy creates it: AdminCreateUser mails the invitation's temporary password.
    const adminEmail = 'smoke-admin@example.com';
    await invokeAdminSeat(stack(), adminSeatCreateEvent(adminEmail));
    const temporaryPassword = stack().mailbox.list(adminEmail).find((mail) => mail.subject === 'Your temporary password')!.code!;
    const admin = { email: adminEmail, password: temporaryPassword, newPassword: 'Smoke-admin-chosen-1' };
    // The site as it serves config.json and the API under API_PATH (the distribution in AWS, Vite in
    // `npm run dev`): every call of the smoke goes through the site's origin, as the web app's do.
    const config = serveRuntimeConfig(stack().config);
    const apiOnSite = serveApiOnSite(stack().config.apiUrl);
    const site = await listen(
      createServer((req, res) => {
        if (req.url === '/config.json') return config(req, res);
        apiOnSite(req, res, () => {
          res.writeHead(404);
          res.end();
        });
      }),
      0,
    );
    const steps: string[] = [];
    try {
      const { jobId, adminNewPasswordSet } = await runSmoke({ configUrl: `${site.url}/config.json`, admin, log: (line) => steps.push(line) });
      expect(steps.map((line) => line.replace(/ \(\d+ ms\)$/, ''))).toEqual([
        'ok  poster signed in',
        'ok  worker signed in',
        'ok  admin signed in, replacing the temporary password',
        'ok  worker saved an avatar, a location and alert preferences',
        'ok  poster payment account connected',
        'ok  worker payment account connected',
        'ok  job posted with a photo uploaded to S3 and paid with the test card',
        'ok  worker reported the job',
        "ok  admin found the job with its photo among the admin's jobs and approved the report",
        'ok  worker applied',
        'ok  poster accepted the worker',
        'ok  worker and poster chatted, the poster live over the WebSocket API',
        'ok  worker marked the job complete',
        'ok  worker filed a dispute and the admin resolved it',
        'ok  poster released the payment',
        'ok  job deleted',
        'smoke test passed',
      ]);
      const someone = await createUser(stack(), { role: 'worker' });
      expect((await api(stack(), 'GET', `/jobs/${jobId}`, { token: someone.idToken })).status).toBe(404);
      // The new-password step set the admin's password: it now signs in without a challenge.
      expect(adminNewPasswordSet).toBe(true);
      const cognito = new CognitoIdentityProviderClient({ endpoint: stack().urls.cognito, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });
      const signedIn = await cognito.send(
        new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: stack().userPool.clientId, AuthParameters: { USERNAME: adminEmail, PASSWORD: admin.newPassword } }),
      );
      expect(signedIn.AuthenticationResult?.IdToken).toBeTruthy();
    } finally {
      await site.close();
    }
  }, 90_000);

  it('refuses to sign up users against AWS, asking for the operator-provided pair, and always for the admin', async () => {
    const site = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...stack().config, mode: 'aws' }));
      }),
      0,
    );
    try {
      const admin = { email: 'admin@example.com', password: 'its-password' };
      await expect(runSmoke({ configUrl: `${site.url}/config.json`, admin, log: () => undefined })).rejects.toThrow(/SMOKE_POSTER=email:password/);
      await expect(runSmoke({ configUrl: `${site.url}/config.json`, log: () => undefined })).rejects.toThrow(/SMOKE_ADMIN=email:password/);
    } finally {
      await site.close();
    }
  });
});
