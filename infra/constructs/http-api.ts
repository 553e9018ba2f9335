import { Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  type IHttpApi,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { HttpRouteGroup } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from './app-function.js';
import { pascalCase } from './names.js';

export interface DeclaredHttpApiProps {
  /** The API, bare (the site stack's, which its distribution fronts): this gives it its stage and routes. */
  readonly api: IHttpApi;
  /** The route groups of functions/routes.ts: one function each. */
  readonly routeGroups: Readonly<Record<string, HttpRouteGroup>>;
  readonly functionResources: FunctionResources;
  /** Issuer and audience of the ID tokens that non-public routes require. */
  readonly tokenIssuer: string;
  readonly userPoolClient: IUserPoolClient;
  readonly throttle: ThrottleSettings;
  /**
   * Where the routes go, with their integrations, permissions and the authorizer: every route
   * is two resources (the route and Lambda's permission for it), so the routes have a stack of
   * their own. The API, its stage and the functions stay in this construct's stack.
   */
  readonly routesScope: Construct;
}

type MethodName = keyof typeof HttpMethod;

/** "GET /jobs/{id}" -> its method name and path. */
export function parseRouteKey(routeKey: string): { method: MethodName; path: string } {
  const [method = '', path = ''] = routeKey.split(' ');
  if (!(method in HttpMethod) || !path.startsWith('/')) throw new Error(`Route key "${routeKey}" is not "METHOD /path"`);
  return { method: method as MethodName, path };
}

/**
 * One JSON line per request: enough to find a request by id and see who got what, and why.
 * requestId is the correlation id of the function's log lines and of every event the request
 * causes (functions/lib/logger.ts); integrationRequestId is the Lambda invocation's id, the
 * function's `function_request_id`. The status is a number, for the metric filters' comparisons.
 */
export const HTTP_ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  integrationRequestId: '$context.integration.requestId',
    requestTime: '$context.requestTime',
    sourceIp: '$context.identity.sourceIp',
    userAgent: '$context.identity.userAgent',
    routeKey: '$context.routeKey',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    authorizerError: '$context.authorizer.error',
    integrationError: '$context.integrationErrorMessage',
} as const;
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(JSON.stringify(HTTP_ACCESS_LOG_FIELDS).replace('"$context.status"', '$context.status'));

/**
 * The HTTP API as declared: its stage, one Lambda per route group, each declared route on its
 * group's function, and the user pool's JWT authorizer on every route that is not public.
 */
export class DeclaredHttpApi extends Construct {
  readonly api: IHttpApi;
  /** One line per request (HTTP_ACCESS_LOG_FIELDS). */
  readonly accessLogs: logs.LogGroup;
  /** The declared route keys, by route group (functions/routes.ts HTTP_ROUTE_GROUPS). */
  readonly routeKeys: Readonly<Record<string, readonly string[]>>;

  constructor(scope: Construct, id: string, props: DeclaredHttpApiProps) {
    super(scope, id);
    this.routeKeys = Object.fromEntries(Object.entries(props.routeGroups).map(([groupName, group]) => [groupName, Object.keys(group.routes)]));

    // Imported, so that what CDK places under the API (the authorizer, the integrations) is made
    // in this construct's stack, beside the functions, and not in the stack that made the API.
    this.api = HttpApi.fromHttpApiAttributes(this, 'Api', { httpApiId: props.api.apiId, apiEndpoint: props.api.apiEndpoint });
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH });
    new HttpStage(this, 'Stage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: { destination: new LogGroupLogDestination(this.accessLogs), format: ACCESS_LOG_FORMAT },
    });

    const authorizer = new HttpJwtAuthorizer('UserPoolAuthorizer', props.tokenIssuer, {
      jwtAudience: [props.userPoolClient.userPoolClientId],
    });
    for (const [groupName, group] of Object.entries(props.routeGroups)) {
      const groupFunction = new AppFunction(this, pascalCase(groupName), { declaration: group, resources: props.functionResources });
      // One invoke permission per function, for this API's routes, rather than one per route:
      // the routes' stack grows by one resource a route, not two (CloudFormation's 500; ours 250).
      const integration = new HttpLambdaIntegration(`${pascalCase(groupName)}Integration`, groupFunction.function, { scopePermissionToRoute: false });
      for (const [routeKey, access] of Object.entries(group.routes)) {
        const { method, path } = parseRouteKey(routeKey);
        const isPublic = access === 'public';
        const route = new HttpRoute(props.routesScope, `${method}${path}`, {
          httpApi: this.api,
          routeKey: HttpRouteKey.with(path, HttpMethod[method]),
          integration,
          authorizer: isPublic ? undefined : authorizer,
        });
        if (isPublic) {
          Validations.of(route).acknowledge({
            id: 'AwsSolutions-APIG4',
            reason: `${routeKey} is public by its declaration in functions/routes.ts.`,
          });
        }
      }
    }
  }
}
