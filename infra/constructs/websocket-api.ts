import { Stack, Validations } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage, type ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Construct } from 'constructs';
import type { FunctionDeclaration } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';

/** The shape of WEBSOCKET_API in functions/routes.ts. */
export interface WebSocketApiDeclaration {
  readonly authorizer: FunctionDeclaration;
  readonly connections: FunctionDeclaration;
  readonly routes: readonly string[];
  readonly identityQueryParameter: string;
}

/** API Gateway runs a WebSocket authorizer on this route only; it admits the whole connection. */
const CONNECT_ROUTE = '$connect';

export interface DeclaredWebSocketApiProps {
  readonly declaration: WebSocketApiDeclaration;
  /** What the functions' capabilities may use, besides this API's own stage. */
  readonly functionResources: FunctionResources;
  /** The environment with which the authorizer verifies ID tokens. */
  readonly tokenVerifierEnvironment: Readonly<Record<string, string>>;
  readonly throttle: ThrottleSettings;
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
    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: 'live',
      autoDeploy: true,
      throttle: props.throttle,
    });
    Validations.of(this.stage).acknowledge({
      id: 'AwsSolutions-APIG1',
      reason:
        'WebSocket API logging needs the account-wide API Gateway CloudWatch role, which an application stack ' +
        'should not own; the authorizer and connections functions log every connect and disconnect.',
    });

    const resources = { ...props.functionResources, webSocketStage: this.stage };
    const authorizer = new WebSocketLambdaAuthorizer(
      'TokenAuthorizer',
      new AppFunction(this, 'Authorizer', {
        declaration: declaration.authorizer,
        resources,
        environment: props.tokenVerifierEnvironment,
      }).function,
      { identitySource: [`route.request.querystring.${declaration.identityQueryParameter}`] },
    );
    const integration = new WebSocketLambdaIntegration(
      'ConnectionsIntegration',
      new AppFunction(this, 'Connections', { declaration: declaration.connections, resources }).function,
    );

    for (const routeKey of declaration.routes) {
      const isConnect = routeKey === CONNECT_ROUTE;
      const route = this.api.addRoute(routeKey, { integration, authorizer: isConnect ? authorizer : undefined });
      if (!isConnect) {
        Validations.of(route).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${routeKey} runs on a connection the authorizer admitted on ${CONNECT_ROUTE}, the one route API Gateway authorizes.`,
        });
      }
    }
  }
}
