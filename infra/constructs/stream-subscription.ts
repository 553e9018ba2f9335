import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StreamConsumer } from '../../functions/routes.js';
import { DeadLetterQueue } from './dead-letter-queue.js';
import { AppFunction, type FunctionResources } from './app-function.js';

export interface StreamSubscriptionProps {
  readonly table: dynamodb.ITableV2;
  /** The consumer as declared in STREAM_CONSUMERS. */
  readonly consumer: StreamConsumer;
  readonly functionResources: FunctionResources;
}

/**
 * A function reading the table's stream through an event source mapping with the consumer's
 * declared filter. A failure stops the shard at the failed record (batch item failures) and
 * is retried until the record leaves the stream (24 hours); only then is the batch reported
 * to the dead-letter queue, so the order of events holds and none is skipped while the bus is down.
 */
export class StreamSubscription extends Construct {
  readonly consumer: AppFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: StreamSubscriptionProps) {
    super(scope, id);
    this.consumer = new AppFunction(this, 'Consumer', { declaration: props.consumer, resources: props.functionResources });
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', 'the stream mapping: it receives the batches that outlived the stream');

    this.consumer.function.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        maxBatchingWindow: Duration.millis(0),
        reportBatchItemFailures: true,
        retryAttempts: -1,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: [lambda.FilterCriteria.filter(props.consumer.filter as Record<string, unknown>)],
      }),
    );
  }
}
