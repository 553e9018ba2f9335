import { Duration, Validations } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * Where what could not be delivered waits for an operator (and raises an alarm): encrypted,
 * TLS-only, kept for the 14 days SQS allows.
 */
export class DeadLetterQueue extends sqs.Queue {
  /** @param deadLetterOf what this queue catches, for the cdk-nag acknowledgement (SQS3). */
  constructor(scope: Construct, id: string, deadLetterOf: string) {
    super(scope, id, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, retentionPeriod: Duration.days(14) });
    Validations.of(this).acknowledge({ id: 'AwsSolutions-SQS3', reason: `This queue is the dead-letter queue of ${deadLetterOf}.` });
  }
}
