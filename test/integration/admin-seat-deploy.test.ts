import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import type { AdminStatus, OwnProfile } from '../../shared/api.js';
import { MSG } from '../../shared/messages.js';
import { DEPLOY_FUNCTIONS, ENV } from '../../functions/routes.js';
import { getProfile } from '../../functions/domain/profiles.js';
import { api, createUser, signUp, useLocalStack } from '../support/local-stack.js';

/** What CloudFormation sends the custom resource on the first deploy. */
const createEvent = (email: string) =>
  ({
    RequestType: 'Create',
    ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:provider',
    ResponseURL: 'https://example.com',
    StackId: 'stack',
    RequestId: 'request',
    LogicalResourceId: 'AdminSeat',
    ResourceType: 'Custom::AdminSeat',
    ResourceProperties: { ServiceToken: 'provider', AdminEmail: email, AdminName: 'Admin' },
  }) as CloudFormationCustomResourceEvent;

describe('the admin seat when the deploy owns it (AWS)', () => {
  const stack = useLocalStack();
  const adminStatus = async () => (await api<AdminStatus>(stack(), 'GET', '/accounts/admin-status')).body;
  /** The pre-sign-up trigger as the deploy configures it in AWS. */
  const seatByDeploy = (value: 'true' | undefined) => stack().functions.updateEnvironment('preSignUp', { [ENV.adminSeatByDeploy]: value });
  /** The custom resource's function, run as Lambda runs it: its own environment and capabilities. */
  const seatAdmin = async (event: CloudFormationCustomResourceEvent) =>
    (await stack().functions.invoke('adminSeat', DEPLOY_FUNCTIONS.adminSeat, event)) as { PhysicalResourceId: string; Data?: Record<string, string> };

  afterEach(() => seatByDeploy(undefined));

  it('refuses the admin role at public sign-up and leaves the seat alone; other roles sign up as before', async () => {
    seatByDeploy('true');
    await expect(signUp(stack(), { role: 'admin' })).rejects.toThrow(MSG.auth.adminExists);
    expect(await adminStatus()).toEqual({ adminExists: false });
    const worker = await createUser(stack(), { role: 'worker' });
    expect((await api<OwnProfile>(stack(), 'GET', '/me', { token: worker.idToken })).body.role).toBe('worker');
  });

  it('seats the admin the deploy creates, with profile and confirmed seat, and running again changes nothing', async () => {
    const email = 'Owner@Example.com';
    const first = await seatAdmin(createEvent(email));
    expect(first.PhysicalResourceId).toBe('admin-seat-owner@example.com');
    const userId = first.Data!.UserId!;
    expect(await getProfile(userId)).toMatchObject({ role: 'admin', email: 'owner@example.com' });
    expect(await adminStatus()).toEqual({ adminExists: true });

    expect((await seatAdmin(createEvent(email))).Data).toEqual({ UserId: userId });
    // Even without the flag, the held seat refuses a public admin sign-up.
    await expect(signUp(stack(), { role: 'admin' })).rejects.toThrow(MSG.auth.adminExists);
    await expect(seatAdmin(createEvent('someone-else@example.com'))).rejects.toThrow('The admin seat is held by owner@example.com');
  });
});
