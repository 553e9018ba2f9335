import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueConsumer } from '../../functions/routes.js';
import { AppFunction, DEFAULT_TIMEOUT_SECONDS, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface QueueSubscriptionProps {
  /** The consumer as declared in QUEUE_CONSUMERS. */
  readonly consumer: QueueConsumer;
  /** What the consumer's capabilities may use; given the subscription's own queue, for a consumer that sends to it. */
  readonly functionResources: (queue: sqs.IQueue) => FunctionResources;
}

/** A message is received this many times before it moves to the dead-letter queue. */
const MAX_RECEIVE_COUNT = 3;

/**
 * A queue and the function that consumes it. Messages the function keeps failing on end up in
 * the subscription's dead-letter queue instead of being lost or retried forever.
 */
export class QueueSubscription extends Construct {
  readonly queue: sqs.Queue;
  readonly consumer: AppFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: QueueSubscriptionProps) {
    super(scope, id);
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', 'the subscription queue beside it');
    this.queue = new sqs.Queue(this, 'Queue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Lambda's recommendation: at least six times the function's timeout.
      visibilityTimeout: Duration.seconds(6 * (props.consumer.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS)),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    this.consumer = new AppFunction(this, 'Consumer', { declaration: props.consumer, resources: props.functionResources(this.queue) });
    this.consumer.function.addEventSource(
      new SqsEventSource(this.queue, { batchSize: props.consumer.batchSize, reportBatchItemFailures: true }),
    );
  }
}
