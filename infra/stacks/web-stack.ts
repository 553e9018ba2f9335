import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Aws, CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import type { IWebSocketStage } from 'aws-cdk-lib/aws-apigatewayv2';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import type * as iam from 'aws-cdk-lib/aws-iam';
import { pageContentSecurityPolicy } from '../constructs/content-security-policy.js';
import type { StageNames } from '../constructs/names.js';
import { acknowledgeWildcardPermissions } from '../constructs/nag.js';
import { SearchMap } from '../constructs/search-map.js';
import { API_PATH } from '../constructs/site-request.js';
import { siteBucketName } from './site-stack.js';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { runtimeConfigSchema, type RuntimeConfig } from '../../shared/runtime-config.js';
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

const INDEX_HTML = 'index.html';
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
  /** The distribution whose cache a deploy invalidates (its bucket is named by siteBucketName). */
  readonly distribution: cloudfront.IDistribution;
  readonly webSocketStage: IWebSocketStage;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  /** The browser uploads job images and avatars straight to this bucket. */
  readonly imagesBucket: IBucket;
  /** ...and shows them from this CDN. */
  readonly imagesUrl: string;
  /** Stripe's publishable key for Stripe Elements (not a secret). */
  readonly stripePublishableKey: string;
  /** The stage, whose site bucket this stack deploys into. */
  readonly names: StageNames;
  /** The site's origin (its own domain or CloudFront's): the SiteUrl output, and the API's under API_PATH. */
  readonly siteOrigin: string;
}

/** The policy as the first element of the page's head, before anything it governs loads. */
export function withContentSecurityPolicy(indexHtml: string, policy: string): string {
  const head = /<head[^>]*>/i.exec(indexHtml);
  if (!head) throw new Error('index.html has no <head>: the content security policy has nowhere to go.');
  const at = head.index + head[0].length;
  return `${indexHtml.slice(0, at)}<meta http-equiv="Content-Security-Policy" content="${policy}" />${indexHtml.slice(at)}`;
}

/**
 * The single-page app's files in the site stack's bucket, with the runtime configuration and
 * content security policy that point the app at this deployment's APIs, user pool and images.
 * Replaceable: the files are rebuilt from the repository.
 */
export class WebStack extends Stack {
  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);
    // By name, not by a reference to the site stack: the copying function's grants then name
    // this stack's values only (pseudo parameters), which its acknowledgement below can list.
    const siteBucket = Bucket.fromBucketName(this, 'SiteFiles', siteBucketName(props.names, this));
    const policy = pageContentSecurityPolicy({
      webSocketApi: props.webSocketStage.api.apiEndpoint,
      cognito: `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      imageUploads: `https://${props.imagesBucket.bucketRegionalDomainName}`,
      images: props.imagesUrl,
      maps: `https://maps.geo.${Aws.REGION}.${Aws.URL_SUFFIX}`,
    });
    const searchMap = new SearchMap(this, 'SearchMap', { names: props.names, siteOrigin: props.siteOrigin });

    const runtimeConfig: RuntimeConfig = {
      mode: 'aws',
      region: this.region,
      // On the site's own origin (SiteStack): no CORS preflight, no second connection.
      apiUrl: `${props.siteOrigin}${API_PATH}`,
      webSocketUrl: props.webSocketStage.url,
      userPoolId: props.userPool.userPoolId,
      userPoolClientId: props.userPoolClient.userPoolClientId,
      authFlowType: 'USER_SRP_AUTH',
      stripe: { publishableKey: props.stripePublishableKey },
      adminSeatByDeploy: true,
      map: { styleUrl: searchMap.styleUrl },
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
        Source.asset(props.webDistDir, { exclude: [HASHED_ASSETS_DIR, INDEX_HTML, ...NOT_PUBLISHED] }),
        Source.data(INDEX_HTML, withContentSecurityPolicy(readFileSync(join(props.webDistDir, INDEX_HTML), 'utf8'), policy)),
        // Checked here, at synth, against the schema it is typed by: the web app trusts the file
        // (web/src/lib/config.ts) rather than carry zod in every page's first load.
        Source.jsonData('config.json', runtimeConfigSchema.parse(runtimeConfig)),
      ],
      destinationBucket: siteBucket,
      cacheControl: [CacheControl.fromString(SITE_CACHE_CONTROL.entryPoints)],
      prune: false,
      distribution: props.distribution,
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

    new CfnOutput(this, 'SiteUrl', { value: props.siteOrigin });
    new CfnOutput(this, 'ApiUrl', { value: runtimeConfig.apiUrl });
    new CfnOutput(this, 'WebSocketUrl', { value: runtimeConfig.webSocketUrl });
    new CfnOutput(this, 'UserPoolId', { value: runtimeConfig.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: runtimeConfig.userPoolClientId });
  }
}
