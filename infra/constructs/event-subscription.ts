import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { EventPattern, EventRule } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';

export interface EventSubscriptionProps {
  readonly eventBus: events.IEventBus;
  /** The rule as declared in EVENT_RULES. */
  readonly rule: EventRule;
  readonly functionResources: FunctionResources;
}

/** The declared pattern in CDK's spelling; CloudFormation receives it unchanged. */
function toCdkPattern(pattern: EventPattern): events.EventPattern {
  return {
    source: [...pattern.source],
    ...(pattern['detail-type'] && { detailType: [...pattern['detail-type']] }),
    ...(pattern.detail && { detail: { ...pattern.detail } }),
  };
}

/**
 * A rule on the bus and the function it invokes. Events that cannot be delivered, or that the
 * function keeps failing on, end up in the subscription's dead-letter queue instead of being lost.
 */
export class EventSubscription extends Construct {
  readonly consumer: AppFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: EventSubscriptionProps) {
    super(scope, id);

    this.consumer = new AppFunction(this, 'Consumer', { declaration: props.rule, resources: props.functionResources });
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', "the rule's target and of the function's asynchronous invocations");

    new events.Rule(this, 'Rule', {
      eventBus: props.eventBus,
      description: props.rule.description,
      eventPattern: toCdkPattern(props.rule.pattern),
      targets: [
        // Retries cover delivery failures (throttling, permissions); the function's own
        // retries below cover errors it throws.
        new targets.LambdaFunction(this.consumer.function, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });
    this.consumer.function.configureAsyncInvoke({
      retryAttempts: 2,
      onFailure: new SqsDestination(this.deadLetterQueue),
    });
  }
}
