import { randomUUID } from 'node:crypto';
import type { SNSEvent } from 'aws-lambda';

/** The ARN of a local topic (the account and region every local ARN uses). */
export const localTopicArn = (name: string) => `arn:aws:sns:us-east-1:000000000000:${name}`;

/** Lambda's event for one message published to an SNS topic it is subscribed to, as SNS delivers it. */
export function snsEvent(topicArn: string, message: string, now = new Date()): SNSEvent {
  const messageId = randomUUID();
  return {
    Records: [
      {
        EventSource: 'aws:sns',
        EventVersion: '1.0',
        EventSubscriptionArn: `${topicArn}:${randomUUID()}`,
        Sns: {
          Type: 'Notification',
          MessageId: messageId,
          TopicArn: topicArn,
          Message: message,
          Timestamp: now.toISOString(),
          SignatureVersion: '1',
          Signature: '',
          SigningCertUrl: '',
          UnsubscribeUrl: '',
          MessageAttributes: {},
        },
      },
    ],
  };
}
