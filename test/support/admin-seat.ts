import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { DEPLOY_FUNCTIONS } from '../../functions/routes.js';
import type { LocalStack } from '../../infra/local/stack.js';

export type AdminSeatResult = { PhysicalResourceId: string; Data?: Record<string, string> };

/** What CloudFormation sends the admin seat's custom resource on the first deploy. */
export const adminSeatCreateEvent = (email: string) =>
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

/** Runs the custom resource's function as Lambda runs it for the deploy: its own environment and capabilities. */
export const invokeAdminSeat = async (stack: LocalStack, event: CloudFormationCustomResourceEvent) =>
  (await stack.functions.invoke('adminSeat', DEPLOY_FUNCTIONS.adminSeat, event)) as AdminSeatResult;
