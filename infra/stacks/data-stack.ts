import { Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { UPLOAD_STATE_TAG } from '../../functions/lib/images.js';
import { TABLE_DESIGN } from '../../functions/table.js';
import { IMAGE_DISPOSITION } from '../../shared/limits.js';
import { DataCapabilities } from '../constructs/data-capabilities.js';
import { BucketDistribution } from '../constructs/bucket-distribution.js';
import { accountUniqueName } from '../constructs/names.js';
import { AccessLogsBucket, PrivateBucket } from '../constructs/private-bucket.js';

/**
 * The origin whose pages may upload job images straight to the bucket: a literal (an operator's
 * domain), or the name of the SSM parameter the site stack keeps its CloudFront origin in. Not
 * an export of the site stack: a stack that imports it would forbid the site's replacement, and
 * this one is kept across releases. CloudFormation reads the parameter at every deploy of this
 * stack (and the CDK CLI never skips a stack that reads one), so a replaced site's new origin
 * reaches the bucket at the next `cdk deploy --all`.
 */
export type BrowserOrigin = { readonly origin: string } | { readonly parameterName: string };

export interface DataStackProps extends StackProps {
  readonly browserOrigin: BrowserOrigin;
}

/** How long an upload may wait for the form that attaches it. */
export const UNATTACHED_UPLOAD_RETENTION_DAYS = 2;
/** How long a replaced or deleted image can still be restored. */
export const IMAGE_VERSION_RETENTION_DAYS = 30;

const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

/**
 * What the application keeps: the one table and the job images, with the managed policies
 * through which functions reach them. Neither store is replaced by a deployment, and both
 * survive the deletion of the stack.
 */
export class DataStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly imagesBucket: s3.Bucket;
  /** Where browsers load images from: a CDN in front of the private bucket. */
  readonly imagesUrl: string;
  /** Stripe's secret API key and the two webhook signing secrets, set by the operator (docs/deploy.md). */
  readonly stripeSecret: secretsmanager.Secret;
  /** The key that signs emails' unsubscribe tokens (`mail:unsubscribe-key`). */
  readonly unsubscribeSecret: secretsmanager.Secret;
  /** The VAPID keys that sign web pushes (`push:vapid`). */
  readonly vapidSecret: secretsmanager.Secret;
  /** What `table:*` and `images:*` grant a function. */
  readonly capabilities: DataCapabilities;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: stringKey(TABLE_DESIGN.partitionKey),
      sortKey: stringKey(TABLE_DESIGN.sortKey),
      timeToLiveAttribute: TABLE_DESIGN.timeToLiveAttribute,
      dynamoStream: dynamodb.StreamViewType[TABLE_DESIGN.streamViewType],
      globalSecondaryIndexes: Object.entries(TABLE_DESIGN.indexes).map(([indexName, index]) => ({
        indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      billing: dynamodb.Billing.onDemand(),
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    const accessLogs = new AccessLogsBucket(this, 'AccessLogs', { acceptsCloudFrontLogs: true });
    this.imagesBucket = new PrivateBucket(this, 'JobImages', {
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'job-images/',
      // Browsers upload with presigned PUT or POST requests; the signature, not the origin,
      // authorizes them, so any request header the SDK signs is allowed.
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.POST],
          allowedOrigins: ['origin' in props.browserOrigin ? props.browserOrigin.origin : ssm.StringParameter.valueForStringParameter(this, props.browserOrigin.parameterName)],
          allowedHeaders: ['*'],
          exposedHeaders: ['ETag'],
          maxAge: Duration.hours(1).toSeconds(),
        },
      ],
      // Versioned, so an image overwritten or deleted by mistake can be restored for a while.
      versioned: true,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { noncurrentVersionExpiration: Duration.days(IMAGE_VERSION_RETENTION_DAYS), expiredObjectDeleteMarker: true },
        // Uploads no job or profile took (functions/lib/images.ts tags them on attach).
        {
          prefix: 'uploads/',
          tagFilters: { [UPLOAD_STATE_TAG.key]: UPLOAD_STATE_TAG.unattached },
          expiration: Duration.days(UNATTACHED_UPLOAD_RETENTION_DAYS),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    // In this stack, beside the bucket: origin access control edits the bucket's policy.
    this.imagesUrl = new BucketDistribution(this, 'ImagesCdn', {
      comment: 'Odd jobs: job images and avatars',
      bucket: this.imagesBucket,
      logBucket: accessLogs,
      logFilePrefix: 'images-cdn/',
      defaultBehavior: { responseHeadersPolicy: uploadedFileHeaders(this) },
    }).url;

    this.stripeSecret = new secretsmanager.Secret(this, 'StripeKeys', {
      description: 'Odd jobs: Stripe keys as JSON {"secretKey": "sk_...", "webhookSecret": "whsec_...", "connectWebhookSecret": "whsec_..."}',
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    Validations.of(this.stripeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Stripe API keys are rolled in the Stripe dashboard, which no rotation Lambda can do; the operator updates the secret then.',
    });

    // Generated once and kept: rotating it would break the unsubscribe links of every email sent.
    this.unsubscribeSecret = new secretsmanager.Secret(this, 'UnsubscribeKey', {
      description: 'Odd jobs: the key that signs the one-click unsubscribe links of notification emails (generated)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    Validations.of(this.unsubscribeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating the signing key would invalidate the unsubscribe link of every email already sent, which RFC 8058 expects to keep working.',
    });

    // Kept with the data: browsers subscribed with its public key, so new keys would orphan every subscription.
    this.vapidSecret = new secretsmanager.Secret(this, 'VapidKeys', {
      description: 'Odd jobs: web push VAPID keys as JSON {"publicKey": "B...", "privateKey": "...", "subject": "mailto:..."} (npx web-push generate-vapid-keys --json)',
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    Validations.of(this.vapidSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'Rotating VAPID keys would invalidate every browser subscription made with the public key; they are replaced by hand only if leaked.',
    });

    this.capabilities = new DataCapabilities(this, 'Capabilities', {
      table: this.table,
      indexNames: Object.keys(TABLE_DESIGN.indexes),
      imagesBucket: this.imagesBucket,
      imagesUrl: this.imagesUrl,
    });
  }
}

/**
 * Whatever an uploaded object turns out to be, a browser never runs it: its type is never
 * sniffed, opened directly it is downloaded, and were it rendered it could do nothing.
 * (The server also admits only real images; this is the second lock.)
 */
function uploadedFileHeaders(scope: Construct): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'UploadedFileHeaders', {
    responseHeadersPolicyName: accountUniqueName(scope, 'uploaded-file-headers'),
    comment: 'Uploaded images: nosniff, download when opened, no script',
    securityHeadersBehavior: {
      contentTypeOptions: { override: true },
      contentSecurityPolicy: { contentSecurityPolicy: "default-src 'none'; sandbox", override: true },
    },
    customHeadersBehavior: { customHeaders: [{ header: 'Content-Disposition', value: IMAGE_DISPOSITION, override: true }] },
  });
}
