import { Duration, Names, Stack, Validations } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface OperationalAlarmsProps {
  /** Every function of the application (each built from a declaration in functions/routes.ts). */
  readonly functions: readonly lambda.IFunction[];
  /** Every dead-letter queue: one message in any of them is an event or push that was lost. */
  readonly deadLetterQueues: readonly IQueue[];
  readonly httpApi: IHttpApi;
  readonly webSocketStage: IWebSocketStage;
  readonly table: ITableV2;
  /** Who is mailed when an alarm fires; without it the topic has no subscription. */
  readonly alarmEmail?: string;
}

/** Share of HTTP requests answered with a 5xx, in percent, above which the API is failing. */
export const HTTP_5XX_RATE_THRESHOLD_PERCENT = 1;
const PERIOD = Duration.minutes(5);
/** The operations the functions call (an alarm's metric math takes at most ten metrics). */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
];

/**
 * What an operator must hear about, as CloudWatch alarms on one SNS topic, and a dashboard of
 * the same metrics: a message in any dead-letter queue, errors or throttles of any function,
 * the HTTP API's 5xx rate, WebSocket integration and execution errors, and DynamoDB
 * throttling. Every alarm notifies when it fires and when it recovers.
 */
export class OperationalAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Odd jobs alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'Alarm notifications carry alarm and metric names only; CloudWatch cannot publish to a topic encrypted with the ' +
        'AWS-managed SNS key, and a customer-managed key for them would protect nothing secret.',
    });
    if (props.alarmEmail) this.topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, description: string, metric: cloudwatch.IMetric, threshold = 1) => {
      const created = new cloudwatch.Alarm(this, alarmId, {
        metric,
        alarmDescription: description,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const deadLetters = props.deadLetterQueues.map((queue) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
    );
    // Alarm ids follow the watched construct, so adding a function adds alarms and renames none.
    props.deadLetterQueues.forEach((queue, index) =>
      alarm(
        `DeadLetters${Names.nodeUniqueId(queue.node)}`,
        `A message is waiting in dead-letter queue ${queue.node.path}: an event or push was not delivered.`,
        deadLetters[index]!,
      ),
    );

    const errors = props.functions.map((fn) => fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM }));
    const throttles = props.functions.map((fn) => fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM }));
    props.functions.forEach((fn, index) => {
      const name = Names.nodeUniqueId(fn.node);
      alarm(`Errors${name}`, `${fn.node.path} failed (uncaught error or timeout).`, errors[index]!);
      alarm(`Throttles${name}`, `${fn.node.path} was throttled (account or reserved concurrency exhausted).`, throttles[index]!);
    });

    const http5xxRate = new cloudwatch.MathExpression({
      label: 'HTTP 5xx rate (%)',
      expression: 'IF(requests > 0, 100 * serverErrors / requests, 0)',
      usingMetrics: {
        serverErrors: props.httpApi.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        requests: props.httpApi.metricCount({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      },
      period: PERIOD,
    });
    alarm('Http5xxRate', `More than ${HTTP_5XX_RATE_THRESHOLD_PERCENT}% of HTTP API requests answered with a 5xx.`, http5xxRate, HTTP_5XX_RATE_THRESHOLD_PERCENT);

    const webSocketMetric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.webSocketStage.api.apiId, Stage: props.webSocketStage.stageName },
        period: PERIOD,
        statistic: cloudwatch.Stats.SUM,
      });
    const webSocketErrors = new cloudwatch.MathExpression({
      label: 'WebSocket errors',
      expression: 'integration + execution',
      usingMetrics: { integration: webSocketMetric('IntegrationError'), execution: webSocketMetric('ExecutionError') },
      period: PERIOD,
    });
    alarm('WebSocketErrors', 'The WebSocket API failed to run a route (integration or execution error).', webSocketErrors);

    const tableThrottles = props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD });
    alarm('TableThrottles', 'DynamoDB throttled requests to the table.', tableThrottles);

    const graph = (title: string, left: cloudwatch.IMetric[]) => new cloudwatch.GraphWidget({ title, left, width: 12, legendPosition: cloudwatch.LegendPosition.RIGHT });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${Stack.of(this).stackName}-operations`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
        [graph('HTTP API 5xx rate (%)', [http5xxRate]), graph('WebSocket errors', [webSocketErrors])],
        [graph('Messages in dead-letter queues', deadLetters), graph('DynamoDB throttled requests', [tableThrottles])],
        [graph('Lambda errors', errors), graph('Lambda throttles', throttles)],
      ],
    });
  }
}
