import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { CAPABILITY_GRANTS, type Capability, type EnvKey } from '../../functions/routes.js';
import { acknowledgeWildcardPermissions } from './nag.js';

/**
 * A capability granted by a managed policy that the stack owning the resource defines. Keeping
 * the policy next to the resource keeps its statements free of cross-stack references, which
 * is what lets the inherent wildcard (object keys) be acknowledged here once, for every
 * function that will ever declare the capability.
 */
export interface ManagedCapability {
  readonly policy: iam.IManagedPolicy;
  /** What a function with the capability needs to know, by the keys of ENV. */
  readonly environment: Readonly<Partial<Record<EnvKey, string>>>;
}

export type DataCapability = Extract<Capability, `table:${string}` | `images:${string}`>;

export interface DataCapabilitiesProps {
  readonly table: dynamodb.TableV2;
  /** The table's global secondary indexes, which readers query. */
  readonly indexNames: readonly string[];
  readonly imagesBucket: s3.Bucket;
  /** Where browsers load images from (the handlers build image URLs on it). */
  readonly imagesUrl: string;
}

/** The one bucket-level action among the images capabilities' (the others act on objects). */
const BUCKET_ACTION = 's3:ListBucket';
const objectActions = (capability: 'images:read' | 'images:write') => CAPABILITY_GRANTS[capability].actions.filter((action) => action !== BUCKET_ACTION);

/** The `table:*` and `images:*` capabilities as least-privilege managed policies. */
export class DataCapabilities extends Construct {
  readonly byCapability: Readonly<Record<DataCapability, ManagedCapability>>;

  constructor(scope: Construct, id: string, props: DataCapabilitiesProps) {
    super(scope, id);
    const { table, imagesBucket } = props;
    const tableEnvironment = { tableName: table.tableName };
    const imagesEnvironment = { imagesBucket: imagesBucket.bucketName, imagesBaseUrl: props.imagesUrl };
    // Index by index rather than "index/*": a reader may query exactly the declared indexes.
    const indexArns = props.indexNames.map((indexName) => `${table.tableArn}/index/${indexName}`);

    const imagesPolicy = (policyId: string, description: string, actions: string[], bucketStatements: iam.PolicyStatement[] = []) => {
      const statement = new iam.PolicyStatement({ actions, resources: [imagesBucket.arnForObjects('*')] });
      const policy = new iam.ManagedPolicy(this, policyId, { description, statements: [statement, ...bucketStatements] });
      acknowledgeWildcardPermissions(
        policy,
        [statement],
        "Object keys are chosen per upload (under the uploader's id); the grant covers this bucket's objects only.",
      );
      return policy;
    };

    this.byCapability = {
      'table:read': {
        policy: new iam.ManagedPolicy(this, 'TableRead', {
          description: 'Reads items of the table and queries its indexes',
          statements: [new iam.PolicyStatement({ actions: [...CAPABILITY_GRANTS['table:read'].actions], resources: [table.tableArn, ...indexArns] })],
        }),
        environment: tableEnvironment,
      },
      'table:write': {
        policy: new iam.ManagedPolicy(this, 'TableWrite', {
          description: 'Puts, updates and deletes items of the table',
          statements: [new iam.PolicyStatement({ actions: [...CAPABILITY_GRANTS['table:write'].actions], resources: [table.tableArn] })],
        }),
        environment: tableEnvironment,
      },
      'images:read': {
        // Without ListBucket, S3 answers HeadObject of a missing key with 403 instead of 404,
        // and an image that was never uploaded would look like a server error. A prefix
        // condition cannot narrow it: HeadObject carries no s3:prefix. The bucket holds only
        // images every visitor may see.
        policy: imagesPolicy('ImagesRead', 'Reads job images (and presigns downloads)', objectActions('images:read'), [
          new iam.PolicyStatement({ actions: [BUCKET_ACTION], resources: [imagesBucket.bucketArn] }),
        ]),
        environment: imagesEnvironment,
      },
      'images:write': {
        policy: imagesPolicy('ImagesWrite', 'Writes and deletes job images (and presigns uploads)', objectActions('images:write')),
        environment: imagesEnvironment,
      },
    };
  }
}
