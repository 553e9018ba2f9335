import { Aws } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as opensearch from 'aws-cdk-lib/aws-opensearchserverless';
import * as osis from 'aws-cdk-lib/aws-osis';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { StageNames } from './names.js';

export interface SearchCollectionProps {
  readonly names: StageNames;
  /** The one table, whose stream carries every search document's change (its point-in-time recovery gives the first full load). */
  readonly table: dynamodb.ITableV2;
  /** Where the pipeline's first full load (a point-in-time export of the table) is written. */
  readonly exportBucket: s3.IBucket;
}

/** The index the pipeline writes the open jobs' search documents to. */
export const OPEN_JOBS_INDEX = 'open-jobs';

/**
 * Where search goes when one market outgrows the search function's memory (docs/scale.md,
 * "Search"): an OpenSearch Serverless collection fed from the table by an OpenSearch Ingestion
 * pipeline. The pipeline reads the table's stream (after a first export) and keeps only the
 * search documents (`type = searchDocument`, functions/search/search-documents.ts): what the
 * search function indexes today becomes the collection's documents, keyed by the table's key,
 * a tombstone deleting its job. Not part of the deployed app: docs/scale.md says when and how
 * to add it, and what it costs.
 */
export class SearchCollection extends Construct {
  readonly collection: opensearch.CfnCollection;
  readonly pipeline: osis.CfnPipeline;

  constructor(scope: Construct, id: string, props: SearchCollectionProps) {
    super(scope, id);
    const name = `${props.names.prefix}-jobs`;
    const onCollection = [{ ResourceType: 'collection', Resource: [`collection/${name}`] }];
    const encryption = new opensearch.CfnSecurityPolicy(this, 'Encryption', {
      name: `${name}-encryption`,
      type: 'encryption',
      policy: JSON.stringify({ Rules: onCollection, AWSOwnedKey: true }),
    });
    // Reached by the pipeline and the search function, each signing with its role (the data policy below).
    const network = new opensearch.CfnSecurityPolicy(this, 'Network', {
      name: `${name}-network`,
      type: 'network',
      policy: JSON.stringify([{ Rules: onCollection, AllowFromPublic: true }]),
    });
    this.collection = new opensearch.CfnCollection(this, 'Collection', { name, type: 'SEARCH', standbyReplicas: 'ENABLED', description: 'The open jobs, for search (docs/scale.md)' });
    this.collection.addDependency(encryption);
    this.collection.addDependency(network);

    const pipelineRole = new iam.Role(this, 'PipelineRole', {
      assumedBy: new iam.ServicePrincipal('osis-pipelines.amazonaws.com'),
      description: 'Reads the table (its export and stream) and writes the open jobs to the search collection',
    });
    pipelineRole.addToPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:DescribeTable', 'dynamodb:DescribeContinuousBackups', 'dynamodb:ExportTableToPointInTime'],
        resources: [props.table.tableArn],
      }),
    );
    pipelineRole.addToPolicy(new iam.PolicyStatement({ actions: ['dynamodb:DescribeExport'], resources: [`${props.table.tableArn}/export/*`] }));
    pipelineRole.addToPolicy(
      new iam.PolicyStatement({ actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'], resources: [props.table.tableStreamArn!] }),
    );
    props.exportBucket.grantReadWrite(pipelineRole, 'search-export/*');
    pipelineRole.addToPolicy(new iam.PolicyStatement({ actions: ['aoss:BatchGetCollection', 'aoss:APIAccessAll'], resources: [this.collection.attrArn] }));

    new opensearch.CfnAccessPolicy(this, 'DataAccess', {
      name: `${name}-data`,
      type: 'data',
      policy: JSON.stringify([
        {
          Rules: [{ ResourceType: 'index', Resource: [`index/${name}/*`], Permission: ['aoss:CreateIndex', 'aoss:UpdateIndex', 'aoss:DescribeIndex', 'aoss:WriteDocument', 'aoss:ReadDocument'] }],
          Principal: [pipelineRole.roleArn],
        },
      ]),
    });

    this.pipeline = new osis.CfnPipeline(this, 'Pipeline', {
      pipelineName: name,
      minUnits: 1,
      maxUnits: 4,
      pipelineConfigurationBody: [
        'version: "2"',
        'open-jobs:',
        '  source:',
        '    dynamodb:',
        '      acknowledgments: true',
        '      tables:',
        `        - table_arn: "${props.table.tableArn}"`,
        '          stream:',
        '            start_position: "LATEST"',
        '          export:',
        `            s3_bucket: "${props.exportBucket.bucketName}"`,
        `            s3_region: "${Aws.REGION}"`,
        '            s3_prefix: "search-export/"',
        '      aws:',
        `        sts_role_arn: "${pipelineRole.roleArn}"`,
        `        region: "${Aws.REGION}"`,
        '  route:',
        '    - search-documents: \'/type == "searchDocument"\'',
        '  sink:',
        '    - opensearch:',
        `        hosts: ["${this.collection.attrCollectionEndpoint}"]`,
        `        index: "${OPEN_JOBS_INDEX}"`,
        '        document_id: \'${getMetadata("primary_key")}\'',
        '        action: \'${getMetadata("opensearch_action")}\'',
        '        routes: [search-documents]',
        '        aws:',
        `          sts_role_arn: "${pipelineRole.roleArn}"`,
        `          region: "${Aws.REGION}"`,
        '          serverless: true',
      ].join('\n'),
    });
  }
}
