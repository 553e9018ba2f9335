import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { Construct, IConstruct } from 'constructs';
import { BucketDistribution, SPA_FALLBACK_TTL } from '../constructs/bucket-distribution.js';
import { SITE_HEADER_CSP } from '../constructs/content-security-policy.js';
import { accountUniqueName, type StageNames } from '../constructs/names.js';
import { AccessLogsBucket, PrivateBucket } from '../constructs/private-bucket.js';

/**
 * The site bucket's name, derived from the stage, account and region: the web stack, which
 * deploys into it, names it the same way instead of holding a reference to this stack's bucket.
 */
export const siteBucketName = (names: StageNames, scope: IConstruct) => `${names.prefix}-site-${Stack.of(scope).account}-${Stack.of(scope).region}`;

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
 * Where the web app is served: a private bucket behind CloudFront, with the security headers.
 * The first stack, so every other one knows the site's origin (CORS, Stripe's return URLs);
 * the web stack deploys the build into its bucket last. Replaceable: it holds no data.
 */
export class SiteStack extends Stack {
  readonly bucket: PrivateBucket;
  readonly distribution: cloudfront.Distribution;
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
