import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Construct, IConstruct } from 'constructs';
import { BucketDistribution } from '../constructs/bucket-distribution.js';
import { API_PATH, SITE_REQUEST_FUNCTION_CODE } from '../constructs/site-request.js';
import { SITE_HEADER_CSP } from '../constructs/content-security-policy.js';
import { accountUniqueName, type StageNames } from '../constructs/names.js';
import { AccessLogsBucket, PrivateBucket } from '../constructs/private-bucket.js';

/**
 * The site bucket's name, derived from the stage, account and region: the web stack, which
 * deploys into it, names it the same way instead of holding a reference to this stack's bucket.
 */
export const siteBucketName = (names: StageNames, scope: IConstruct) => `${names.prefix}-site-${Stack.of(scope).account}-${Stack.of(scope).region}`;

/**
 * Every status code whose error caching CloudFront lets a distribution set (its
 * CustomErrorResponses): set to 0 for each, so no error is kept for 10 seconds and answered to
 * another caller. The API's cache key has no Authorization and no query (caching is off for
 * it), so one caller's 403 or 503 must never be another's
 * (docs/decisions/0276-the-edge-caches-no-errors-and-outwaits-the-api.md).
 */
export const UNCACHED_ERROR_CODES = [400, 403, 404, 405, 414, 416, 500, 501, 502, 503, 504] as const;
/** The HTTP API's integration timeout, a hard limit of API Gateway. */
export const HTTP_API_INTEGRATION_TIMEOUT_SECONDS = 30;
/**
 * How long CloudFront waits for the HTTP API: longer than the API's own integration timeout, so
 * the API's 503 for a function too slow reaches the caller instead of CloudFront giving up (and
 * retrying a GET) first; within the 60 seconds CloudFront allows without a quota increase.
 */
export const API_ORIGIN_READ_TIMEOUT_SECONDS = HTTP_API_INTEGRATION_TIMEOUT_SECONDS + 5;

/** A domain of the operator's for the site, and its ACM certificate (in us-east-1, as CloudFront requires). */
export interface SiteDomain {
  readonly domainName: string;
  readonly certificateArn: string;
}

export interface SiteStackProps extends StackProps {
  readonly names: StageNames;
  /** @default the distribution's own *.cloudfront.net domain */
  readonly domain?: SiteDomain;
}

/**
 * Where the web app is served: a private bucket behind CloudFront, with the security headers,
 * and the HTTP API under the same origin (API_PATH). The first stack, so every other one knows
 * the site's origin (the uploads' CORS, Stripe's return URLs, links in emails); the API stack
 * gives the HTTP API made here its stage and routes, and the web stack deploys the build into
 * the bucket last. Replaceable: it holds no data.
 */
export class SiteStack extends Stack {
  readonly bucket: PrivateBucket;
  readonly distribution: cloudfront.Distribution;
  /**
   * The HTTP API, bare: its stage, authorizer and routes are the API stack's. It is made here
   * because the distribution forwards API_PATH to it, and everything after this stack needs
   * the distribution's domain; it has no CORS, as pages call it on their own origin.
   */
  readonly httpApi: HttpApi;
  /** The site's origin: https://<domainName> with a domain, else e.g. https://d111111abcdef8.cloudfront.net. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: SiteStackProps) {
    super(scope, id, props);
    const accessLogs = new AccessLogsBucket(this, 'AccessLogs', { acceptsCloudFrontLogs: true });
    this.bucket = new PrivateBucket(this, 'SiteFiles', {
      bucketName: siteBucketName(props.names, this),
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'site-files/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: accountUniqueName(this, 'security-headers'),
      comment: 'Odd jobs: security headers of the web app',
      securityHeadersBehavior: {
        contentSecurityPolicy: { override: true, contentSecurityPolicy: SITE_HEADER_CSP },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: cloudfront.HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN },
        strictTransportSecurity: { override: true, accessControlMaxAge: Duration.days(365 * 2), includeSubdomains: true },
      },
    });

    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${this.stackName}-Http`,
      description: 'Odd jobs: the HTTP API of the web app',
      // The API stack's stage replaces the default one, for its access log and throttling.
      createDefaultStage: false,
    });
    // Client-side routes (/jobs/123) answered with index.html, and the API's prefix taken off.
    const routeRequest = [
      {
        eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
        function: new cloudfront.Function(this, 'RouteRequest', {
          functionName: accountUniqueName(this, 'route-request'),
          comment: 'Odd jobs: the web app\'s routes to index.html, the API\'s path to the HTTP API',
          runtime: cloudfront.FunctionRuntime.JS_2_0,
          code: cloudfront.FunctionCode.fromInline(SITE_REQUEST_FUNCTION_CODE),
        }),
      },
    ];

    const site = new BucketDistribution(this, 'Site', {
      comment: 'Odd jobs: the web app',
      bucket: this.bucket,
      logBucket: accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: { responseHeadersPolicy: securityHeaders, functionAssociations: routeRequest },
      distribution: {
        defaultRootObject: 'index.html',
        // Error caching applies to the whole distribution; the site's files lose nothing by it either.
        errorResponses: UNCACHED_ERROR_CODES.map((httpStatus) => ({ httpStatus, ttl: Duration.seconds(0) })),
        additionalBehaviors: {
          [`${API_PATH}/*`]: {
            origin: new HttpOrigin(`${this.httpApi.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`, {
              protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
              originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
              readTimeout: Duration.seconds(API_ORIGIN_READ_TIMEOUT_SECONDS),
            }),
            // A redirect would drop a POST's body; API callers use HTTPS.
            viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
            allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
            cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
            // Every header (Authorization above all) and query string, but the Host: API Gateway
            // answers only for its own.
            originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
            responseHeadersPolicy: securityHeaders,
            functionAssociations: routeRequest,
          },
        },
        ...(props.domain && {
          domainNames: [props.domain.domainName],
          certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
          minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
        }),
      },
    });
    this.distribution = site.distribution;
    this.origin = props.domain ? `https://${props.domain.domainName}` : site.url;
    // Where the operator points the domain's DNS record (CNAME or alias).
    if (props.domain) new CfnOutput(this, 'DistributionDomainName', { value: site.distribution.distributionDomainName });
  }
}
