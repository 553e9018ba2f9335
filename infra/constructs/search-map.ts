import { Aws, Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as location from 'aws-cdk-lib/aws-location';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { StageNames } from './names.js';
import { acknowledgeWildcardPermissions } from './nag.js';

/** The construct id aws-cdk-lib gives the one function of a stack's AwsCustomResources. */
const AWS_CUSTOM_RESOURCE_SINGLETON = 'AWS679f53fac002430cb0da5b7982bd2287';

export interface SearchMapProps {
  readonly names: StageNames;
  /** The site's origin: the only one the map's API key serves. */
  readonly siteOrigin: string;
}

/**
 * The map of search results (issue 46): an Amazon Location map and an API key that may only
 * read that map's style, tiles, fonts and sprites, from pages of the site's origin. A key is a
 * public value (the browser sends it); CloudFormation does not return it, so a deploy-time call
 * (DescribeKey) reads it for the web app's configuration.
 */
export class SearchMap extends Construct {
  /** The map's style descriptor, with the key: what MapLibre GL JS loads. */
  readonly styleUrl: string;

  constructor(scope: Construct, id: string, props: SearchMapProps) {
    super(scope, id);
    const map = new location.CfnMap(this, 'Map', {
      mapName: `${props.names.prefix}-jobs`,
      configuration: { style: 'VectorEsriNavigation' },
      description: 'Where the jobs a search found are (their areas, never their addresses)',
    });
    const key = new location.CfnAPIKey(this, 'Key', {
      keyName: `${props.names.prefix}-jobs-map`,
      description: "Reads the jobs map, from the site's pages only",
      noExpiry: true,
      restrictions: {
        allowActions: ['geo:GetMap*'],
        allowResources: [map.attrArn],
        allowReferers: [`${props.siteOrigin}/*`],
      },
    });
    const keyValue = new cr.AwsCustomResource(this, 'KeyValue', {
      onUpdate: {
        service: 'Location',
        action: 'DescribeKey',
        parameters: { KeyName: key.keyName },
        physicalResourceId: cr.PhysicalResourceId.of(key.attrKeyArn),
        outputPaths: ['Key'],
      },
      policy: cr.AwsCustomResourcePolicy.fromSdkCalls({ resources: [key.attrKeyArn] }),
      installLatestAwsSdk: false,
    });
    this.styleUrl = `https://maps.geo.${Aws.REGION}.${Aws.URL_SUFFIX}/maps/v0/maps/${map.mapName}/style-descriptor?key=${keyValue.getResponseField('Key')}`;

    // The call is made by CDK's singleton function of the stack, which runs only during deployments.
    const reason = "CDK's AwsCustomResource function: CDK sets its runtime and role; it runs only during deployments, to read the map key's value.";
    const singleton = Stack.of(this).node.findChild(AWS_CUSTOM_RESOURCE_SINGLETON);
    Validations.of(singleton).acknowledge(
      { id: 'AwsSolutions-L1', reason },
      { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason },
    );
    acknowledgeWildcardPermissions(keyValue, (keyValue.node.findChild('CustomResourcePolicy') as iam.Policy).document, reason);
  }
}
