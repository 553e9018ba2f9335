import { describe, expect, it } from 'vitest';
import { publishAllowed, TOPIC_PUBLISHERS, topicPolicyStatements, topicTlsDenyStatement } from '../../infra/topic-policies.js';

const scope = { partition: 'aws', region: 'us-east-1', account: '111122223333' };
const topicArn = 'arn:aws:sns:us-east-1:111122223333:alarms';

describe('SNS topic policies, as the local stack evaluates them', () => {
  const cloudWatch = { topicArn, service: 'cloudwatch.amazonaws.com', account: scope.account, sourceArn: 'arn:aws:cloudwatch:us-east-1:111122223333:alarm:Errors' };

  it("let the topic's publisher publish for its own resources in this account", () => {
    expect(publishAllowed(topicPolicyStatements(topicArn, scope.account, TOPIC_PUBLISHERS.alarms(scope)), cloudWatch)).toBe(true);
  });

  it('refuse a topic whose only statement is the TLS deny, as AWS refuses CloudWatch then', () => {
    expect(publishAllowed([topicTlsDenyStatement(topicArn)], cloudWatch)).toBe(false);
  });

  it('refuse another service, another account, and another source', () => {
    const policy = topicPolicyStatements(topicArn, scope.account, TOPIC_PUBLISHERS.sesFeedback(scope, 'oddjobs-mail'));
    const ses = { topicArn, service: 'ses.amazonaws.com', account: scope.account, sourceArn: 'arn:aws:ses:us-east-1:111122223333:configuration-set/oddjobs-mail' };
    expect(publishAllowed(policy, ses)).toBe(true);
    expect(publishAllowed(policy, cloudWatch)).toBe(false);
    expect(publishAllowed(policy, { ...ses, account: '444455556666' })).toBe(false);
    expect(publishAllowed(policy, { ...ses, sourceArn: 'arn:aws:ses:us-east-1:111122223333:configuration-set/other' })).toBe(false);
  });
});
