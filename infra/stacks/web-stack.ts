import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type { IHttpApi, IWebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import { acknowledgeWildcardPermissions } from '../constructs/nag.js';
import { BucketDistribution, SPA_FALLBACK_TTL } from '../constructs/bucket-distribution.js';
import { AccessLogsBucket, PrivateBucket } from '../constructs/private-bucket.js';
import { REPO_ROOT } from '../constructs/repo.js';

/** Where `npm run build` puts the SPA. */
export const DEFAULT_WEB_DIST_DIR = join(REPO_ROOT, 'web', 'dist');

/**
 * The directory of the built SPA, or a clear error when there is none. Called before any stack
 * is built, so a missing build fails the synth at once rather than after bundling.
 */
export function requireBuiltWebApp(webDistDir: string = DEFAULT_WEB_DIST_DIR): string {
  const indexHtml = join(webDistDir, 'index.html');
  if (!existsSync(indexHtml)) {
    throw new Error(`${indexHtml} does not exist: run \`npm run build\` before synthesizing, so the web stack can deploy the built app.`);
  }
  return webDistDir;
}

/**
 * How long browsers and CloudFront keep the site's files. Vite names everything under assets/
 * by its content hash, so a changed file is a new name and the old one may be kept forever;
 * index.html and config.json name the current build and deployment, so they are revalidated
 * on every load.
 */
export const SITE_CACHE_CONTROL = {
  hashedAssets: 'public, max-age=31536000, immutable',
  entryPoints: 'no-cache',
} as const;

/** Vite's folder of content-hashed files. */
const HASHED_ASSETS_DIR = 'assets';
/**
 * Source maps stay out of the bucket: the build writes them without a reference
 * (`sourcemap: 'hidden'`) for whoever symbolicates an error report, never for the public.
 */
const NOT_PUBLISHED = ['*.map'];

export interface WebStackProps extends StackProps {
  /** The built SPA (see requireBuiltWebApp). */
  readonly webDistDir: string;
  readonly httpApi: IHttpApi;
  readonly webSocketStage: IWebSocketStage;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  /** The browser uploads job images and avatars straight to this bucket. */
  readonly imagesBucket: IBucket;
  /** ...and shows them from this CDN. */
  readonly imagesUrl: string;
  /** Stripe's publishable key for Stripe Elements (not a secret). */
  readonly stripePublishableKey: string;
}

interface ContentSecurityPolicyHosts {
  readonly httpApi: string;
  readonly webSocketApi: string;
  readonly cognito: string;
  /** Where images are uploaded to (the bucket) and shown from (the CDN). */
  readonly imageUploads: string;
  readonly images: string;
}

/** Where the page may load from and talk to: itself, our APIs and buckets, Cognito and Stripe. */
function contentSecurityPolicy(hosts: ContentSecurityPolicyHosts): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", 'https://js.stripe.com'],
    'style-src': ["'self'"],
    // blob: for previews of images before they are uploaded.
    'img-src': ["'self'", 'data:', 'blob:', hosts.images],
    'connect-src': ["'self'", hosts.httpApi, hosts.webSocketApi, hosts.cognito, 'https://api.stripe.com', hosts.imageUploads],
    'frame-src': ['https://js.stripe.com', 'https://hooks.stripe.com'],
    'form-action': ["'self'", hosts.imageUploads],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * The single-page app: a private bucket behind CloudFront, the built files, and the runtime
 * configuration that points the app at this deployment's APIs and user pool. Replaceable: the
 * files are rebuilt from the repository.
 */
export class WebStack extends Stack {
  readonly distribution: cloudfront.Distribution;
  /** The site's address, e.g. https://d111111abcdef8.cloudfront.net. */
  readonly siteUrl: string;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    const accessLogs = new AccessLogsBucket(this, 'AccessLogs', { acceptsCloudFrontLogs: true });
    const siteBucket = new PrivateBucket(this, 'SiteFiles', {
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'site-files/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const imagesHost = `https://${props.imagesBucket.bucketRegionalDomainName}`;
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Odd jobs: security headers of the web app',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          override: true,
          contentSecurityPolicy: contentSecurityPolicy({
            httpApi: props.httpApi.apiEndpoint,
            webSocketApi: props.webSocketStage.api.apiEndpoint,
            cognito: `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}`,
            imageUploads: imagesHost,
            images: props.imagesUrl,
          }),
        },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: cloudfront.HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN },
        strictTransportSecurity: { override: true, accessControlMaxAge: Duration.days(365 * 2), includeSubdomains: true },
      },
    });

    const site = new BucketDistribution(this, 'Site', {
      comment: 'Odd jobs: the web app',
      bucket: siteBucket,
      logBucket: accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: { responseHeadersPolicy: securityHeaders },
      distribution: {
        defaultRootObject: 'index.html',
        // Client-side routes (/jobs/123) are not objects; the app's index.html renders them.
        // The private bucket answers 403 for a missing key, as it does not let CloudFront list.
        errorResponses: [403, 404].map((httpStatus) => ({
          httpStatus,
          responseHttpStatus: 200,
          responsePagePath: '/index.html',
          ttl: SPA_FALLBACK_TTL,
        })),
      },
    });
    this.distribution = site.distribution;
    this.siteUrl = site.url;

    const runtimeConfig: RuntimeConfig = {
      mode: 'aws',
      region: this.region,
      apiUrl: props.httpApi.apiEndpoint,
      webSocketUrl: props.webSocketStage.url,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.userPoolClient.userPoolClientId,
      authFlowType: 'USER_SRP_AUTH',
      stripe: { publishableKey: props.stripePublishableKey },
      adminSeatByDeploy: true,
    };
    // The hashed assets go first, so a new index.html never names a file not yet uploaded. Files
    // of the previous build stay (no pruning): a tab still running it may load its lazy chunks.
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(join(props.webDistDir, HASHED_ASSETS_DIR), { exclude: NOT_PUBLISHED })],
      destinationBucket: siteBucket,
      destinationKeyPrefix: `${HASHED_ASSETS_DIR}/`,
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.hashedAssets)],
      prune: false,
      memoryLimit: 512,
    });
    const deployment = new BucketDeployment(this, 'DeploySite', {
      sources: [
        Source.asset(props.webDistDir, { exclude: [HASHED_ASSETS_DIR, ...NOT_PUBLISHED] }),
        Source.jsonData('config.json', runtimeConfig),
      ],
      destinationBucket: siteBucket,
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.entryPoints)],
      prune: false,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    deployment.node.addDependency(assets);
    // The copying function is CDK's singleton; its runtime and role are aws-cdk-lib's choice.
    const copyFunction = deployment.handlerRole.node.scope!;
    const cdkManaged = 'CDK-managed BucketDeployment function, which copies the build from the CDK assets bucket into the site bucket.';
    Validations.of(copyFunction).acknowledge(
      { id: 'AwsSolutions-L1', reason: `${cdkManaged} aws-cdk-lib chooses its runtime.` },
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason: `${cdkManaged} Its role carries the basic execution policy for its logs.`,
      },
    );
    acknowledgeWildcardPermissions(
      copyFunction,
      (deployment.handlerRole.node.findChild('DefaultPolicy') as iam.Policy).document,
      `${cdkManaged} Its grants cover the asset and site buckets' objects and this distribution's invalidations.`,
    );

    new CfnOutput(this, 'SiteUrl', { value: this.siteUrl });
    new CfnOutput(this, 'ApiUrl', { value: runtimeConfig.apiUrl });
    new CfnOutput(this, 'WebSocketUrl', { value: runtimeConfig.webSocketUrl });
    new CfnOutput(this, 'UserPoolId', { value: runtimeConfig.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: runtimeConfig.userPoolClientId });
  }
}
