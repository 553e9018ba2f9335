import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

/** Bucket properties a private bucket leaves to its user. */
export type PrivateBucketProps = Omit<s3.BucketProps, 'blockPublicAccess' | 'enforceSSL' | 'encryption' | 'publicReadAccess'>;

/**
 * A bucket no one reaches without IAM permission: public access blocked, TLS required,
 * objects encrypted with S3-managed keys.
 */
export class PrivateBucket extends s3.Bucket {
  constructor(scope: Construct, id: string, props: PrivateBucketProps = {}) {
    super(scope, id, {
      ...props,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
    });
  }
}

export interface AccessLogsBucketProps {
  /**
   * CloudFront's standard logs are written with object ACLs, so a bucket receiving them must
   * accept ACLs. @default false
   */
  readonly acceptsCloudFrontLogs?: boolean;
}

/**
 * The target of S3 server access logs and CloudFront standard logs, kept for 90 days: long
 * enough to investigate an incident, short enough not to pile up. Kept when its stack goes.
 */
export class AccessLogsBucket extends PrivateBucket {
  constructor(scope: Construct, id: string, props: AccessLogsBucketProps = {}) {
    super(scope, id, {
      objectOwnership: props.acceptsCloudFrontLogs ? s3.ObjectOwnership.BUCKET_OWNER_PREFERRED : s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
  }
}
