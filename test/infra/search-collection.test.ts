import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { stageNames } from '../../infra/constructs/names.js';
import { OPEN_JOBS_INDEX, SearchCollection } from '../../infra/constructs/search-collection.js';

/** Where search goes past one function's memory (docs/scale.md "Search"): synthesized here, not part of the deployed app. */
describe('the search collection that takes over from the in-memory engine', () => {
  const stack = new Stack(new App(), 'ScaleOut', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new dynamodb.TableV2(stack, 'Table', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
    sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
    dynamoStream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
  });
  new SearchCollection(stack, 'Search', { names: stageNames('prod'), table, exportBucket: new s3.Bucket(stack, 'Exports') });
  const template = Template.fromStack(stack);

  it('is an OpenSearch Serverless search collection whose index only the pipeline may write', () => {
    template.hasResourceProperties('AWS::OpenSearchServerless::Collection', { Name: 'oddjobs-jobs', Type: 'SEARCH', StandbyReplicas: 'ENABLED' });
    template.resourceCountIs('AWS::OpenSearchServerless::SecurityPolicy', 2);
    const [access] = Object.values(template.findResources('AWS::OpenSearchServerless::AccessPolicy'));
    expect(JSON.stringify(access!.Properties.Policy)).toContain('aoss:WriteDocument');
    expect(JSON.stringify(access!.Properties.Policy)).toContain('PipelineRole');
  });

  it("feeds it the table's search documents alone, from the stream after a first export, a tombstone deleting its job", () => {
    const [pipeline] = Object.values(template.findResources('AWS::OSIS::Pipeline'));
    // The YAML, with each deploy-time value (the table, the role, the endpoint) as a marker.
    const parts = (pipeline!.Properties.PipelineConfigurationBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const body = parts.map((part) => (typeof part === 'string' ? part : '<deploy-time value>')).join('');
    expect(body).toContain(`- search-documents: '/type == "searchDocument"'`);
    expect(body).toContain(`index: "${OPEN_JOBS_INDEX}"`);
    expect(body).toContain(`action: '\${getMetadata("opensearch_action")}'`);
    expect(body).toContain('start_position: "LATEST"');
    expect(body).toContain('serverless: true');
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Action: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'] })]) },
    });
  });
});
