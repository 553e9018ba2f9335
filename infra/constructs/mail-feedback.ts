import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sns from 'aws-cdk-lib/aws-sns';
import { LambdaSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import type { TopicConsumer } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { DeadLetterQueue } from './dead-letter-queue.js';
import { TOPIC_PUBLISHERS, topicPublishStatement } from '../topic-policies.js';

export interface MailFeedbackProps {
  /** The function that stops email to bouncing and complaining addresses (TOPIC_CONSUMERS.sesFeedback). */
  readonly consumer: TopicConsumer;
  readonly functionResources: FunctionResources;
}

/**
 * The SES configuration set the mailer sends with, whose bounce and complaint events SES
 * publishes to an SNS topic, and the function subscribed to it. Invocations the function keeps
 * failing on end up in the dead-letter queue.
 */
export class MailFeedback extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  readonly topic: sns.Topic;
  readonly consumer: AppFunction;
  readonly deadLetterQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: MailFeedbackProps) {
    super(scope, id);
    // SES publishes to an encrypted topic only with a customer managed key it may use.
    const key = new kms.Key(this, 'TopicKey', { enableKeyRotation: true, description: 'Encrypts the SES feedback topic' });
    key.addToResourcePolicy(
      new iam.PolicyStatement({ principals: [new iam.ServicePrincipal('ses.amazonaws.com')], actions: ['kms:GenerateDataKey*', 'kms:Decrypt'], resources: ['*'] }),
    );
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'SES bounces and complaints', masterKey: key, enforceSSL: true });
    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', { reputationMetrics: true });
    // The publisher's Allow as declared once (the local stack checks the same); the event
    // destination below adds its own equivalent statement, which this one does not rely on.
    const { partition, region, account } = Stack.of(this);
    this.topic.addToResourcePolicy(
      iam.PolicyStatement.fromJson(
        topicPublishStatement(this.topic.topicArn, account, TOPIC_PUBLISHERS.sesFeedback({ partition, region, account }, this.configurationSet.configurationSetName)),
      ),
    );
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: ses.EventDestination.snsTopic(this.topic),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });

    this.consumer = new AppFunction(this, 'Consumer', { declaration: props.consumer, resources: props.functionResources });
    this.deadLetterQueue = new DeadLetterQueue(this, 'DeadLetterQueue', "the function's asynchronous invocations");
    this.topic.addSubscription(new LambdaSubscription(this.consumer.function));
    this.consumer.function.configureAsyncInvoke({ retryAttempts: 2, onFailure: new SqsDestination(this.deadLetterQueue) });
  }
}
