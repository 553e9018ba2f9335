import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type { IConfigurationSet } from 'aws-cdk-lib/aws-ses';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as location from 'aws-cdk-lib/aws-location';
import type { Construct } from 'constructs';
import type { ApiThrottle } from '../../functions/api-throttles.js';
import { HTTP_ROUTE_GROUPS, LIVE_COALESCING, QUEUE_CONSUMERS, RECURRING_SCHEDULES, REVIEW_PUBLICATION, SCHEDULE_TARGETS, STREAM_CONSUMERS, WEBSOCKET_API } from '../../functions/routes.js';
import { RATE_LIMITS } from '../../shared/limits.js';
import type { FunctionResources } from '../constructs/app-function.js';
import { API_PATH } from '../constructs/site-request.js';
import type { DataCapabilities } from '../constructs/data-capabilities.js';
import { DeclaredHttpApi } from '../constructs/http-api.js';
import { pascalCase } from '../constructs/names.js';
import { QueueSubscription } from '../constructs/queue-subscription.js';
import { RecurringSchedule } from '../constructs/recurring-schedule.js';
import { ReleaseSchedules } from '../constructs/release-schedules.js';
import { StreamSubscription } from '../constructs/stream-subscription.js';
import { DeclaredWebSocketApi } from '../constructs/websocket-api.js';

export interface ApiStackProps extends StackProps {
  /** What the functions' `table:*` and `images:*` capabilities grant. */
  readonly dataCapabilities: DataCapabilities;
  /** The table whose stream the stream consumers (the outbox relay) read. */
  readonly table: ITableV2;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  /** The `iss` claim of the pool's ID tokens. */
  readonly tokenIssuer: string;
  /** The site's origin: where Stripe's onboarding returns and emails link to. */
  readonly siteOrigin: string;
  /** The HTTP API, bare, as the site's distribution fronts it (SiteStack.httpApi): its stage and routes are made here. */
  readonly httpApi: IHttpApi;
  /** What the `stripe` capability reads. */
  readonly stripeSecret: ISecret;
  /** What the `push:vapid` capability reads. */
  readonly vapidSecret: ISecret;
  /** The stack of the HTTP API's routes (see DeclaredHttpApi's routesScope). */
  readonly httpRoutes: Stack;
  /** Seconds from a job's completion to its automatic release (`-c autoReleaseHours`). */
  readonly autoReleaseSeconds: number;
  /** The mailer's sender (`-c sesFromAddress`); none: notification email is off. */
  readonly mailFromAddress?: string;
  /** The SES configuration set the mailer sends with (its bounces and complaints stop email, TOPIC_CONSUMERS.sesFeedback). */
  readonly mailConfigurationSet: IConfigurationSet;
  /** What `mail:unsubscribe-key` reads. */
  readonly unsubscribeSecret: ISecret;
  /** The stages' throttles, from the traffic model for the planned size (functions/api-throttles.ts, `-c plannedUsers`). */
  readonly throttles: { readonly http: ApiThrottle; readonly webSocket: ApiThrottle };
}

/**
 * Everything that runs code: the HTTP and WebSocket APIs, the event bus, and one Lambda function
 * per declaration in functions/routes.ts but the event rules'. The HTTP API's routes are in a
 * stack of their own (httpRoutes), the event rules and their functions in another (EventsStack,
 * given functionResources), the alarms in a third. Holds no data, so it can be replaced.
 */
export class ApiStack extends Stack {
  readonly httpApi: DeclaredHttpApi;
  readonly webSocketApi: DeclaredWebSocketApi;
  readonly eventBus: events.EventBus;
  /** The queue of the job feed's shards, which the alarms watch for age. */
  readonly jobFeedQueue: QueueSubscription;
  /** The mail queue and the mailer. */
  readonly mailQueue: QueueSubscription;
  /** The outbox relay, whose stream iterator age the alarms watch. */
  readonly outboxRelay: StreamSubscription;
  /** What `geocoding` searches (Amazon Location). */
  readonly placeIndex: location.CfnPlaceIndex;
  /** The auto-release schedules' group, target function and scheduler role. */
  readonly releaseSchedules: ReleaseSchedules;
  /** What this stack offers the functions it creates, and those of the event rules (EventsStack). */
  readonly functionResources: FunctionResources;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.eventBus = new events.EventBus(this, 'EventBus', { description: 'Odd jobs: application events' });
    this.placeIndex = new location.CfnPlaceIndex(this, 'PlaceIndex', {
      indexName: `${this.stackName}-places`,
      description: 'Odd jobs: geocodes job addresses',
      dataSource: 'Esri',
      // Job coordinates are kept in the table, which the service terms allow for Storage only.
      dataSourceConfiguration: { intendedUse: 'Storage' },
    });
    const sharedResources: FunctionResources = {
      managedCapabilities: props.dataCapabilities.byCapability,
      eventBus: this.eventBus,
      userPool: props.userPool,
      placeIndex: this.placeIndex,
      stripeSecret: props.stripeSecret,
      vapidSecret: props.vapidSecret,
      settings: {
        siteOrigin: props.siteOrigin,
        userPoolId: props.userPool.userPoolId,
        userPoolClientId: props.userPoolClient.userPoolClientId,
        tokenIssuer: props.tokenIssuer,
        autoReleaseSeconds: String(props.autoReleaseSeconds),
        reviewPublicationSeconds: String(REVIEW_PUBLICATION.defaultDays * 86_400),
        liveCoalescingSeconds: String(LIVE_COALESCING.defaultSeconds),
        clientBudgetPerMinute: String(RATE_LIMITS.clientWrites.limit),
      },
    };

    this.webSocketApi = new DeclaredWebSocketApi(this, 'WebSocket', {
      declaration: WEBSOCKET_API,
      functionResources: sharedResources,
      throttle: props.throttles.webSocket,
    });
    // Functions may push to browsers, so the WebSocket stage exists before any of them.
    const pushingResources: FunctionResources = {
      ...sharedResources,
      webSocketStage: this.webSocketApi.stage,
      unsubscribeSecret: props.unsubscribeSecret,
      mailSender: { fromAddress: props.mailFromAddress, configurationSet: props.mailConfigurationSet },
    };
    this.httpApi = new DeclaredHttpApi(this, 'Http', {
      api: props.httpApi,
      routeGroups: HTTP_ROUTE_GROUPS,
      functionResources: pushingResources,
      tokenIssuer: props.tokenIssuer,
      userPoolClient: props.userPoolClient,
      throttle: props.throttles.http.default,
      routesScope: props.httpRoutes,
    });
    const queueResources: FunctionResources = {
      ...pushingResources,
      // Emails link to the site, and their one-click unsubscribe to the API on the site's origin:
      // links that outlive a replaced API.
      settings: { ...pushingResources.settings, mailLinkOrigin: props.siteOrigin, apiUrl: `${props.siteOrigin}${API_PATH}` },
    };
    // A consumer may send to its own queue: the mailer holds emails back for quiet hours, the job
    // feed's consumer hands each shard a flush message.
    const ownQueueResource = { mailer: 'mailQueue', jobFeedShard: 'jobFeedQueue' } as const satisfies Partial<Record<keyof typeof QUEUE_CONSUMERS, keyof FunctionResources>>;
    const queues = Object.fromEntries(
      Object.entries(QUEUE_CONSUMERS).map(([name, consumer]) => [
        name,
        new QueueSubscription(this, pascalCase(name), {
          consumer,
          functionResources: (ownQueue) => {
            const resource = ownQueueResource[name as keyof typeof ownQueueResource] as keyof FunctionResources | undefined;
            return resource ? { ...queueResources, [resource]: ownQueue } : queueResources;
          },
        }),
      ]),
    ) as Record<keyof typeof QUEUE_CONSUMERS, QueueSubscription>;
    this.releaseSchedules = new ReleaseSchedules(this, 'AutoRelease', { target: SCHEDULE_TARGETS.autoRelease, functionResources: pushingResources });
    // The mail settings too: the nearby digest's schedule emails, with the same links as the mailer.
    const functionResources: FunctionResources = (this.functionResources = {
      ...queueResources,
      jobFeedQueue: queues.jobFeedShard.queue,
      mailQueue: queues.mailer.queue,
      releaseSchedules: this.releaseSchedules,
    });

    for (const [name, declaration] of Object.entries(RECURRING_SCHEDULES)) {
      new RecurringSchedule(this, pascalCase(name), { declaration, functionResources });
    }
    const streams = Object.fromEntries(
      Object.entries(STREAM_CONSUMERS).map(([name, consumer]) => [
        name,
        new StreamSubscription(this, pascalCase(name), { table: props.table, consumer, functionResources }),
      ]),
    ) as Record<keyof typeof STREAM_CONSUMERS, StreamSubscription>;
    this.jobFeedQueue = queues.jobFeedShard;
    this.mailQueue = queues.mailer;
    this.outboxRelay = streams.outboxRelay;
  }
}
