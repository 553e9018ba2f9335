import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { Construct, IConstruct } from 'constructs';
import { BucketDistribution, SPA_FALLBACK_TTL } from '../constructs/bucket-distribution.js';
import { AccessLogsBucket, PrivateBucket } from '../constructs/private-bucket.js';

/**
 * The site bucket's name, derived from the account and region: the web stack, which deploys
 * into it, names it the same way instead of holding a reference to this stack's bucket.
 */
export const siteBucketName = (scope: IConstruct) => `oddjobs-site-${Stack.of(scope).account}-${Stack.of(scope).region}`;

/**
 * The header part of the site's content security policy: everything that names no host of a
 * later stack. The exact API, Cognito and image hosts are in the policy the web stack writes
 * into index.html; a browser enforces both, so the page gets the narrower of each.
 */
export const SITE_HEADER_CSP = [
  "default-src 'self'",
  "script-src 'self' https://js.stripe.com",
  "style-src 'self'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self' https: wss:",
  'frame-src https://js.stripe.com https://hooks.stripe.com',
  "form-action 'self' https:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Where the web app is served: a private bucket behind CloudFront, with the security headers.
 * The first stack, so every other one knows the site's origin (CORS, Stripe's return URLs);
 * the web stack deploys the build into its bucket last. Replaceable: it holds no data.
 */
export class SiteStack extends Stack {
  readonly bucket: PrivateBucket;
  readonly distribution: cloudfront.Distribution;
  /** The site's origin, e.g. https://d111111abcdef8.cloudfront.net. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const accessLogs = new AccessLogsBucket(this, 'AccessLogs', { acceptsCloudFrontLogs: true });
    this.bucket = new PrivateBucket(this, 'SiteFiles', {
      bucketName: siteBucketName(this),
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'site-files/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Odd jobs: security headers of the web app',
      securityHeadersBehavior: {
        contentSecurityPolicy: { override: true, contentSecurityPolicy: SITE_HEADER_CSP },
        contentTypeOptions: { override: true },
        frameOptions: { override: true, frameOption: cloudfront.HeadersFrameOption.DENY },
        referrerPolicy: { override: true, referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN },
        strictTransportSecurity: { override: true, accessControlMaxAge: Duration.days(365 * 2), includeSubdomains: true },
      },
    });

    const site = new BucketDistribution(this, 'Site', {
      comment: 'Odd jobs: the web app',
      bucket: this.bucket,
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
    this.origin = site.url;
  }
}
