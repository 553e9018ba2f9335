import { Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { accountUniqueName } from './names.js';

export interface BucketDistributionProps {
  readonly comment: string;
  /** A private bucket in the same stack (its policy gains the origin access control grant). */
  readonly bucket: s3.IBucket;
  readonly logBucket: s3.IBucket;
  readonly logFilePrefix: string;
  /** Extra settings of the default behaviour (e.g. response headers). */
  readonly defaultBehavior?: Partial<cloudfront.BehaviorOptions>;
  /** Extra distribution settings (e.g. the SPA's error responses). */
  readonly distribution?: Partial<cloudfront.DistributionProps>;
}

/**
 * A private S3 bucket served by CloudFront through origin access control: HTTPS only, cached,
 * logged. The web app and the uploaded images are both served this way.
 */
export class BucketDistribution extends Construct {
  readonly distribution: cloudfront.Distribution;
  /** https://<id>.cloudfront.net */
  readonly url: string;


  constructor(scope: Construct, id: string, props: BucketDistributionProps) {
    super(scope, id);
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: props.comment,
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(props.bucket, {
          originAccessControl: new cloudfront.S3OriginAccessControl(this, 'OriginAccessControl', {
            originAccessControlName: accountUniqueName(this, id),
          }),
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        ...props.defaultBehavior,
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: props.logFilePrefix,
      ...props.distribution,
    });
    if (!props.distribution?.certificate) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'The default *.cloudfront.net certificate has a fixed security policy; TLS 1.2+ takes a custom domain ' +
          'with an ACM certificate (-c domainName= -c certificateArn=, docs/deploy.md).',
      });
    }
    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'No geo restriction: the marketplace serves anyone who can reach it.' },
      {
        id: 'AwsSolutions-CFR2',
        reason: 'No WAF: the distributions serve static files and the HTTP API, whose stage throttles it; the WebSocket API, on its own host, is throttled per stage too.',
      },
    );
    this.url = `https://${this.distribution.distributionDomainName}`;
  }
}
