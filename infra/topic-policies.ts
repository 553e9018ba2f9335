/**
 * Who may publish to each SNS topic of the app, as plain IAM JSON: the CDK app adds these
 * statements to the topics' policies (infra/constructs/alarms.ts, mail-feedback.ts), and the
 * local stack evaluates the same documents before it delivers what a service publishes
 * (infra/local/stack.ts), so a topic its publisher may not publish to fails locally as it
 * would fail in AWS. A topic policy whose only statement is the TLS deny lets nobody publish:
 * CloudWatch and SES publish as service principals, which need an explicit Allow.
 */
import { policyAllows, type PolicyStatementJson } from './scheduler-roles.js';

export interface TopicScope {
  readonly partition: string;
  readonly region: string;
  readonly account: string;
}

/** A service that publishes to a topic, and the aws:SourceArn it publishes with (an ARN, or a pattern with `*`). */
export interface TopicPublisher {
  readonly service: string;
  readonly sourceArn: string;
}

/** The app's topics and their one publisher each. */
export const TOPIC_PUBLISHERS = {
  /** The operational alarms' topic: CloudWatch publishes for any alarm of this account and region. */
  alarms: ({ partition, region, account }: TopicScope): TopicPublisher => ({
    service: 'cloudwatch.amazonaws.com',
    sourceArn: `arn:${partition}:cloudwatch:${region}:${account}:alarm:*`,
  }),
  /** SES's bounces and complaints: SES publishes for the mailer's configuration set. */
  sesFeedback: ({ partition, region, account }: TopicScope, configurationSet: string): TopicPublisher => ({
    service: 'ses.amazonaws.com',
    sourceArn: `arn:${partition}:ses:${region}:${account}:configuration-set/${configurationSet}`,
  }),
} as const;

/**
 * The Allow of a topic's publisher, scoped against the confused deputy: aws:SourceAccount is
 * the account, aws:SourceArn the publisher's resources.
 */
export const topicPublishStatement = (topicArn: string, account: string, publisher: TopicPublisher): PolicyStatementJson => ({
  Effect: 'Allow',
  Principal: { Service: publisher.service },
  Action: 'sns:Publish',
  Resource: topicArn,
  Condition: { StringEquals: { 'aws:SourceAccount': account }, ArnLike: { 'aws:SourceArn': publisher.sourceArn } },
});

/** The deny of any request without TLS, which `enforceSSL` gives every topic (and cdk-nag asks for). */
export const topicTlsDenyStatement = (topicArn: string): PolicyStatementJson => ({
  Effect: 'Deny',
  Principal: '*',
  Action: 'sns:Publish',
  Resource: topicArn,
  Condition: { Bool: { 'aws:SecureTransport': 'false' } },
});

/** A topic's whole policy as deployed: its publisher's Allow and the TLS deny. */
export const topicPolicyStatements = (topicArn: string, account: string, publisher: TopicPublisher): PolicyStatementJson[] => [
  topicPublishStatement(topicArn, account, publisher),
  topicTlsDenyStatement(topicArn),
];

/** Whether a service's publish (over TLS, from `sourceArn` of `account`) is allowed by a topic's policy. */
export function publishAllowed(
  statements: readonly PolicyStatementJson[],
  request: { readonly topicArn: string; readonly service: string; readonly account: string; readonly sourceArn: string },
): boolean {
  return policyAllows(statements, {
    action: 'sns:Publish',
    resource: request.topicArn,
    principal: request.service,
    context: { 'aws:SourceAccount': request.account, 'aws:SourceArn': request.sourceArn, 'aws:SecureTransport': 'true' },
  });
}
