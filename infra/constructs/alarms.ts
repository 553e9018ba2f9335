import { Duration, Names, Stack, Validations } from 'aws-cdk-lib';
import type { IWebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { OVERDUE_DECISIONS_METRIC, RECONCILIATION_METRIC, STRIPE_VERSION_METRIC } from '../../functions/routes.js';
import type { DeclaredHttpApi } from './http-api.js';
import { accountUniqueName, pascalCase } from './names.js';
import { TOPIC_PUBLISHERS, topicPublishStatement } from '../topic-policies.js';

export interface OperationalAlarmsProps {
  /**
   * Every function of the application (each built from a declaration in functions/routes.ts),
   * with the concern its alarms group it under ("HTTP API", "Event rules" …).
   */
  readonly functions: readonly { readonly function: lambda.IFunction; readonly concern: string }[];
  /** Every dead-letter queue: one message in any of them is an event or push that was lost; `clearedBy` says how the operator clears it. */
  readonly deadLetterQueues: readonly { readonly queue: IQueue; readonly clearedBy: string }[];
  /** Every EventBridge Scheduler schedule group, by its name (a deploy-time value) and the construct path that made it. */
  readonly scheduleGroups: readonly { readonly name: string; readonly path: string }[];
  /** The HTTP API, its declared routes and its access log. */
  readonly httpApi: DeclaredHttpApi;
  readonly webSocketStage: IWebSocketStage;
  readonly table: ITableV2;
  /** The outbox relay: how far behind the table's stream it reads is how late every event is. */
  readonly outboxRelay: lambda.IFunction;
  /** The job feed's queue: how long its oldest message waits is how late the live list is. */
  readonly jobFeedQueue: IQueue;
  /** The daily reconciliation of the ledger with Stripe (RECURRING_SCHEDULES.reconciliation), which publishes the differences it found. */
  readonly reconciliation: lambda.IFunction;
  /** The money decisions' retry schedule (RECURRING_SCHEDULES.moneyDecisions), which publishes the decisions still pending past their time. */
  readonly moneyDecisions: lambda.IFunction;
  /** Stripe's webhook endpoints' function, which publishes the events it refused for their API version. */
  readonly stripeWebhook: lambda.IFunction;
  /** The account's Lambda concurrency quota in the region (Lambda's default: 1000). */
  readonly accountConcurrencyQuota: number;
  /** Who is mailed when an alarm fires; without it the topic has no subscription. */
  readonly alarmEmail?: string;
}

/** Share of HTTP requests answered with a 5xx, in percent, above which the API is failing. */
export const HTTP_5XX_RATE_THRESHOLD_PERCENT = 1;
/** Requests answered 429 in 5 minutes (the stage's throttle or a user's rate limit) above which clients are being turned away. */
export const HTTP_429_THRESHOLD = 100;
/** How far behind the stream the outbox relay may read before events are late for users. */
export const OUTBOX_ITERATOR_AGE_THRESHOLD = Duration.minutes(5);
/** How long a job feed message may wait before the live list is visibly late. */
export const JOB_FEED_AGE_THRESHOLD = Duration.minutes(1);
/** Share of the account's Lambda concurrency quota, in percent, above which functions are about to be throttled. */
export const ACCOUNT_CONCURRENCY_THRESHOLD_PERCENT = 80;
/** The metrics the access log's filters count, by route key where they have a dimension. */
export const ACCESS_LOG_METRICS = { serverErrors: 'Http5xx', throttled: 'Http429', routeDimension: 'RouteKey' } as const;
/** EventBridge Scheduler's metrics (namespace AWS/Scheduler, dimension ScheduleGroup) the alarms watch. */
export const SCHEDULER_METRICS = {
  targetErrors: 'TargetErrorCount',
  targetThrottled: 'TargetErrorThrottledCount',
  dropped: 'InvocationDroppedCount',
  deadLetterFailed: 'InvocationsFailedToBeSentToDeadLetterCount',
} as const;
/** A metric math alarm takes at most this many metrics. */
export const METRICS_PER_ALARM = 10;
/** An alarm status widget shows at most this many alarms. */
const ALARMS_PER_STATUS_WIDGET = 100;
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
 * EventBridge Scheduler's target errors and lost invocations of each schedule group,
 * the HTTP API's 5xx rate and any 5xx of each route, many 429s, WebSocket integration and
 * execution errors, DynamoDB throttling, a late outbox relay or job feed, and the account's
 * Lambda concurrency near its quota. Every alarm notifies when it fires and when it recovers.
 */
export class OperationalAlarms extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: cloudwatch.Alarm[] = [];
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Odd jobs alarms', enforceSSL: true });
    // CloudWatch publishes as its service principal: without this Allow no alarm reaches anyone.
    const { partition, region, account } = Stack.of(this);
    this.topic.addToResourcePolicy(iam.PolicyStatement.fromJson(topicPublishStatement(this.topic.topicArn, account, TOPIC_PUBLISHERS.alarms({ partition, region, account }))));
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

    const deadLetters = props.deadLetterQueues.map(({ queue }) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM }),
    );
    // Alarm ids follow the watched construct, so adding a function adds alarms and renames none.
    props.deadLetterQueues.forEach(({ queue, clearedBy }, index) =>
      alarm(
        `DeadLetters${Names.nodeUniqueId(queue.node)}`,
        `A message is waiting in dead-letter queue ${queue.node.path}: an event, schedule or push was not delivered. ${clearedBy}`,
        deadLetters[index]!,
      ),
    );

    // Scheduler's own view of each group: what it could not hand to the target (throttled or
    // refused), and what it then dropped, having no dead-letter queue it could send to.
    const schedulerMetric = (metricName: string, group: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/Scheduler', metricName, dimensionsMap: { ScheduleGroup: group }, period: PERIOD, statistic: cloudwatch.Stats.SUM });
    // Metric ids numbered by group: the dashboard graphs every group's expressions together.
    const scheduleFailures = props.scheduleGroups.flatMap(({ name, path }, group) => {
      const id = path.replace(/[^A-Za-z0-9]/g, '');
      const targetErrors = new cloudwatch.MathExpression({
        label: `${path}: target errors`,
        expression: `errors${group} + throttled${group}`,
        usingMetrics: { [`errors${group}`]: schedulerMetric(SCHEDULER_METRICS.targetErrors, name), [`throttled${group}`]: schedulerMetric(SCHEDULER_METRICS.targetThrottled, name) },
        period: PERIOD,
      });
      const lost = new cloudwatch.MathExpression({
        label: `${path}: invocations lost`,
        expression: `dropped${group} + notDeadLettered${group}`,
        usingMetrics: { [`dropped${group}`]: schedulerMetric(SCHEDULER_METRICS.dropped, name), [`notDeadLettered${group}`]: schedulerMetric(SCHEDULER_METRICS.deadLetterFailed, name) },
        period: PERIOD,
      });
      alarm(`SchedulerTargetErrors${id}`, `EventBridge Scheduler could not invoke the target of a schedule of ${path} (refused or throttled); it retries, then dead-letters.`, targetErrors);
      alarm(
        `SchedulerLost${id}`,
        `EventBridge Scheduler dropped an invocation of a schedule of ${path}, or could not send it to the dead-letter queue: check the scheduler role's trust and permissions (docs/deploy.md, "Dead letters").`,
        lost,
      );
      return [targetErrors, lost];
    });

    // Alarms grow with the concerns watched, not with each function or route: one alarm sums the
    // metric of up to METRICS_PER_ALARM of a concern's members (a metric math alarm's limit), and
    // names them; the dashboard's graphs show which one it was.
    const alarmPerConcern = <T>(
      members: readonly T[],
      concernOf: (member: T) => string,
      metricOf: (member: T) => cloudwatch.IMetric,
      nameOf: (member: T) => string,
      alarmOf: (concern: string, names: string) => { id: string; description: string },
    ): cloudwatch.Alarm[] =>
      [...new Set(members.map(concernOf))].flatMap((concern) => {
        const inConcern = members.filter((member) => concernOf(member) === concern);
        return Array.from({ length: Math.ceil(inConcern.length / METRICS_PER_ALARM) }, (_, chunk) => {
          const watched = inConcern.slice(chunk * METRICS_PER_ALARM, (chunk + 1) * METRICS_PER_ALARM);
          const metrics = Object.fromEntries(watched.map((member, index) => [`m${index}`, metricOf(member)]));
          const { id, description } = alarmOf(concern, watched.map(nameOf).join(', '));
          const sum = new cloudwatch.MathExpression({ label: concern, expression: `SUM([${Object.keys(metrics).join(', ')}])`, usingMetrics: metrics, period: PERIOD });
          return alarm(`${id}${pascalCase(concern)}${chunk + 1}`, description, sum);
        });
      });

    const functionName = (fn: lambda.IFunction) => fn.node.path.split('/').slice(1, -1).join('/');
    const errors = props.functions.map(({ function: fn }) => fn.metricErrors({ period: PERIOD, statistic: cloudwatch.Stats.SUM, label: functionName(fn) }));
    const throttles = props.functions.map(({ function: fn }) => fn.metricThrottles({ period: PERIOD, statistic: cloudwatch.Stats.SUM, label: functionName(fn) }));
    const functionAlarm = (id: string, what: string, metrics: cloudwatch.IMetric[]) =>
      alarmPerConcern(
        props.functions.map((fn, index) => ({ ...fn, metric: metrics[index]! })),
        ({ concern }) => concern,
        ({ metric }) => metric,
        ({ function: fn }) => functionName(fn),
        (concern, names) => ({ id, description: `A function of the ${concern} ${what}; the dashboard's graph shows which of: ${names}.` }),
      );
    functionAlarm('Errors', 'failed (uncaught error or timeout)', errors);
    functionAlarm('Throttles', 'was throttled (account or reserved concurrency exhausted)', throttles);

    const httpApi = props.httpApi.api;
    const http5xxRate = new cloudwatch.MathExpression({
      label: 'HTTP 5xx rate (%)',
      expression: 'IF(requests > 0, 100 * serverErrors / requests, 0)',
      usingMetrics: {
        serverErrors: httpApi.metricServerError({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
        requests: httpApi.metricCount({ period: PERIOD, statistic: cloudwatch.Stats.SUM }),
      },
      period: PERIOD,
    });
    alarm('Http5xxRate', `More than ${HTTP_5XX_RATE_THRESHOLD_PERCENT}% of HTTP API requests answered with a 5xx.`, http5xxRate, HTTP_5XX_RATE_THRESHOLD_PERCENT);

    // API Gateway's own metrics have no route; the access log has, and says the status.
    const namespace = `OddJobs/${Stack.of(this).stackName}`;
    const countInAccessLog = (filterId: string, metricName: string, pattern: logs.IFilterPattern, dimensions?: Record<string, string>) =>
      new logs.MetricFilter(this, filterId, {
        logGroup: props.httpApi.accessLogs,
        filterPattern: pattern,
        metricNamespace: namespace,
        metricName,
        metricValue: '1',
        dimensions,
      });
    countInAccessLog('ServerErrorsByRoute', ACCESS_LOG_METRICS.serverErrors, logs.FilterPattern.numberValue('$.status', '>=', 500), {
      [ACCESS_LOG_METRICS.routeDimension]: '$.routeKey',
    });
    countInAccessLog('Throttled', ACCESS_LOG_METRICS.throttled, logs.FilterPattern.numberValue('$.status', '=', 429));
    const routeAlarms = alarmPerConcern(
      Object.entries(props.httpApi.routeKeys).flatMap(([group, routeKeys]) => routeKeys.map((routeKey) => ({ group, routeKey }))),
      ({ group }) => group,
      ({ routeKey }) =>
        new cloudwatch.Metric({
          namespace,
          metricName: ACCESS_LOG_METRICS.serverErrors,
          dimensionsMap: { [ACCESS_LOG_METRICS.routeDimension]: routeKey },
          period: PERIOD,
          statistic: cloudwatch.Stats.SUM,
          label: routeKey,
        }),
      ({ routeKey }) => routeKey,
      (group, routeKeys) => ({ id: 'Http5xx', description: `A route of the ${group} group answered with a 5xx; the dashboard's "HTTP 5xx by route" names which of: ${routeKeys}.` }),
    );
    const throttled = new cloudwatch.Metric({ namespace, metricName: ACCESS_LOG_METRICS.throttled, period: PERIOD, statistic: cloudwatch.Stats.SUM });
    alarm('Http429', `At least ${HTTP_429_THRESHOLD} HTTP requests in 5 minutes were answered 429 (stage throttle or rate limits).`, throttled, HTTP_429_THRESHOLD);

    const relayIteratorAge = props.outboxRelay.metric('IteratorAge', { period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM });
    alarm(
      'OutboxRelayIteratorAge',
      `The outbox relay reads the table's stream more than ${OUTBOX_ITERATOR_AGE_THRESHOLD.toHumanString()} behind: every event is late, and records near 24 hours old are about to expire.`,
      relayIteratorAge,
      OUTBOX_ITERATOR_AGE_THRESHOLD.toMilliseconds(),
    );
    const jobFeedAge = props.jobFeedQueue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1), statistic: cloudwatch.Stats.MAXIMUM });
    alarm('JobFeedQueueAge', `A job feed message waited more than ${JOB_FEED_AGE_THRESHOLD.toHumanString()}: the live job list is late.`, jobFeedAge, JOB_FEED_AGE_THRESHOLD.toSeconds());

    // Lambda's account-wide metric (no dimension) against the quota, which no metric states.
    const accountConcurrency = new cloudwatch.Metric({
      namespace: 'AWS/Lambda',
      metricName: 'ConcurrentExecutions',
      period: Duration.minutes(1),
      statistic: cloudwatch.Stats.MAXIMUM,
      label: `Lambda concurrent executions (quota ${props.accountConcurrencyQuota})`,
    });
    alarm(
      'AccountConcurrency',
      `The account's Lambda functions run more than ${ACCOUNT_CONCURRENCY_THRESHOLD_PERCENT}% of its concurrency quota (${props.accountConcurrencyQuota}) at once: every function is about to be throttled.`,
      accountConcurrency,
      Math.floor((props.accountConcurrencyQuota * ACCOUNT_CONCURRENCY_THRESHOLD_PERCENT) / 100),
    );

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

    // Powertools Metrics' dimensions: its service, and the function that published (one stage's).
    const reconciliationDifferences = new cloudwatch.Metric({
      namespace: RECONCILIATION_METRIC.namespace,
      metricName: RECONCILIATION_METRIC.name,
      dimensionsMap: { service: RECONCILIATION_METRIC.service, [RECONCILIATION_METRIC.dimension]: props.reconciliation.functionName },
      period: Duration.days(1),
      statistic: cloudwatch.Stats.MAXIMUM,
    });
    alarm(
      'ReconciliationDifferences',
      'The daily reconciliation found differences between the money ledger and Stripe: `npm run reconcile -- --stage <stage>` lists each by job and amount (docs/deploy.md, "Reconciliation").',
      reconciliationDifferences,
    );

    const overdueDecisions = new cloudwatch.Metric({
      namespace: OVERDUE_DECISIONS_METRIC.namespace,
      metricName: OVERDUE_DECISIONS_METRIC.name,
      dimensionsMap: { service: OVERDUE_DECISIONS_METRIC.service, [OVERDUE_DECISIONS_METRIC.dimension]: props.moneyDecisions.functionName },
      period: Duration.minutes(15),
      statistic: cloudwatch.Stats.MAXIMUM,
    });
    alarm(
      'OverdueMoneyDecisions',
      "A money decision (a release, refund, split, reversal, tip or payout) is still waiting for its Stripe calls after its retries: the admin console's Money decisions panel shows each with Stripe's last error and a retry (docs/deploy.md, \"Money decisions\").",
      overdueDecisions,
    );

    const otherStripeVersion = new cloudwatch.Metric({
      namespace: STRIPE_VERSION_METRIC.namespace,
      metricName: STRIPE_VERSION_METRIC.name,
      dimensionsMap: { service: STRIPE_VERSION_METRIC.service, [STRIPE_VERSION_METRIC.dimension]: props.stripeWebhook.functionName },
      period: PERIOD,
      statistic: cloudwatch.Stats.SUM,
    });
    alarm(
      'StripeEventsOfAnotherVersion',
      'Stripe sent a webhook event of another API version than the handlers are written for, and it was refused: re-pin the endpoints with `npm run stripe:webhooks` (docs/deploy.md, first deploy step 4).',
      otherStripeVersion,
    );

    const tableThrottles = props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: PERIOD });
    alarm('TableThrottles', 'DynamoDB throttled requests to the table.', tableThrottles);

    const graph = (title: string, left: cloudwatch.IMetric[]) => new cloudwatch.GraphWidget({ title, left, width: 12, legendPosition: cloudwatch.LegendPosition.RIGHT });
    const statusOf = (title: string, alarms: cloudwatch.Alarm[]) =>
      Array.from({ length: Math.ceil(alarms.length / ALARMS_PER_STATUS_WIDGET) }, (_, page) => [
        new cloudwatch.AlarmStatusWidget({ title, alarms: alarms.slice(page * ALARMS_PER_STATUS_WIDGET, (page + 1) * ALARMS_PER_STATUS_WIDGET), width: 24 }),
      ]);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: accountUniqueName(this, 'operations'),
      defaultInterval: Duration.hours(3),
      widgets: [
        ...statusOf('Alarms', this.alarms.filter((created) => !routeAlarms.includes(created))),
        ...statusOf('HTTP routes answering 5xx', routeAlarms),
        [
          graph('HTTP API 5xx rate (%)', [http5xxRate]),
          graph('HTTP 5xx by route', [
            new cloudwatch.MathExpression({
              expression: `SEARCH('{"${namespace}",${ACCESS_LOG_METRICS.routeDimension}} MetricName="${ACCESS_LOG_METRICS.serverErrors}"', 'Sum', ${PERIOD.toSeconds()})`,
              usingMetrics: {},
              period: PERIOD,
            }),
          ]),
        ],
        [graph('HTTP 429s', [throttled]), graph('WebSocket errors', [webSocketErrors])],
        [graph('Outbox relay iterator age (ms)', [relayIteratorAge]), graph('Job feed oldest message (s)', [jobFeedAge])],
        [graph('Messages in dead-letter queues', deadLetters), graph('DynamoDB throttled requests', [tableThrottles])],
        [graph('Lambda errors', errors), graph('Lambda throttles', throttles)],
        [graph('Lambda concurrent executions (account)', [accountConcurrency]), graph('EventBridge Scheduler failures', scheduleFailures)],
      ],
    });
  }
}
