import { Stack, Validations } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { LogGroupLogDestination, WebSocketApi, WebSocketStage, type CfnStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { ApiThrottle } from '../../functions/api-throttles.js';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';

/** The shape of WEBSOCKET_API in functions/routes.ts. */
export interface WebSocketApiDeclaration {
  readonly authorizer: FunctionDeclaration;
  readonly connections: FunctionDeclaration;
  readonly routes: readonly string[];
  readonly identityQueryParameter: string;
}

/** One JSON line per connect, message and disconnect, with why a connection was refused. */
const ACCESS_LOG_FORMAT = apigateway.AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    requestTime: '$context.requestTime',
    eventType: '$context.eventType',
    routeKey: '$context.routeKey',
    connectionId: '$context.connectionId',
    sourceIp: '$context.identity.sourceIp',
    status: '$context.status',
    error: '$context.error.message',
    authorizerError: '$context.authorizer.error',
    integrationError: '$context.integrationErrorMessage',
  }),
);

/** API Gateway runs a WebSocket authorizer on this route only; it admits the whole connection. */
const CONNECT_ROUTE = '$connect';

export interface DeclaredWebSocketApiProps {
  readonly declaration: WebSocketApiDeclaration;
  /** What the functions' capabilities may use, besides this API's own stage. */
  readonly functionResources: FunctionResources;
  /** Every route's throttle, and those of the routes it names (functions/api-throttles.ts). */
  readonly throttle: ApiThrottle;
}

/**
 * The WebSocket API as declared: one function serves every route, and the authorizer admits
 * connections on $connect with the token from the declared query parameter.
 */
export class DeclaredWebSocketApi extends Construct {
  readonly api: WebSocketApi;
  /** Functions with the `sockets:push` capability post to this stage's connections. */
  readonly stage: WebSocketStage;

  constructor(scope: Construct, id: string, props: DeclaredWebSocketApiProps) {
    super(scope, id);
    const { declaration } = props;

    this.api = new WebSocketApi(this, 'Api', {
      apiName: `${Stack.of(this).stackName}-${id}`,
      description: 'Odd jobs: live updates pushed to the web app',
    });
    // API Gateway writes WebSocket access logs with the region's account-level CloudWatch role
    // (HTTP APIs need none). It is one setting for every API of the account and region, so no
    // stack of this app owns it: it is set once per account and region (docs/deploy.md).
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: 'live',
      autoDeploy: true,
      throttle: props.throttle.default,
      accessLogSettings: {
        destination: new LogGroupLogDestination(new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH })),
        format: ACCESS_LOG_FORMAT,
      },
    });

    const resources = { ...props.functionResources, webSocketStage: this.stage };
    const authorizer = new WebSocketLambdaAuthorizer(
      'TokenAuthorizer',
      new AppFunction(this, 'Authorizer', {
        declaration: declaration.authorizer,
        resources,
      }).function,
      { identitySource: [`route.request.querystring.${declaration.identityQueryParameter}`] },
    );
    const integration = new WebSocketLambdaIntegration(
      'ConnectionsIntegration',
      new AppFunction(this, 'Connections', { declaration: declaration.connections, resources }).function,
    );

    const stage = this.stage.node.defaultChild as CfnStage;
    const routeThrottles = props.throttle.routes ?? {};
    const undeclared = Object.keys(routeThrottles).filter((routeKey) => !declaration.routes.includes(routeKey));
    if (undeclared.length) throw new Error(`The WebSocket API has no route ${undeclared.join(', ')} to throttle`);
    stage.routeSettings = Object.fromEntries(
      Object.entries(routeThrottles).map(([routeKey, { rateLimit, burstLimit }]) => [routeKey, { ThrottlingRateLimit: rateLimit, ThrottlingBurstLimit: burstLimit }]),
    );
    for (const routeKey of declaration.routes) {
      const isConnect = routeKey === CONNECT_ROUTE;
      const route = this.api.addRoute(routeKey, { integration, authorizer: isConnect ? authorizer : undefined });
      // A stage's settings may name only routes that exist.
      if (routeKey in routeThrottles) stage.node.addDependency(route);
      if (!isConnect) {
        Validations.of(route).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${routeKey} runs on a connection the authorizer admitted on ${CONNECT_ROUTE}, the one route API Gateway authorizes.`,
        });
      }
    }
  }
}
