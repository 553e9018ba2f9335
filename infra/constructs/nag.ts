import { Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as cr from 'aws-cdk-lib/custom-resources';
// cdk-nag's own rendering of a CloudFormation reference, so the ids below match its findings.
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

interface StatementJson {
  readonly Effect?: string;
  readonly Action?: string | string[];
  readonly Resource?: unknown;
}

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * Acknowledges the wildcard-permission findings (AwsSolutions-IAM5) of the given statements on
 * `scope`, one finding id per wildcard action or resource, named as cdk-nag names them. The
 * statements are rendered when the app is validated, after CDK has resolved the references
 * between stacks: a resource of another stack is then the import of its export, which is how
 * cdk-nag sees it (at construction it would still render as a reference in its own stack).
 */
export function acknowledgeWildcardPermissions(
  scope: IConstruct,
  policy: iam.PolicyDocument | readonly iam.PolicyStatement[],
  reason: string,
): void {
  scope.node.addValidation({
    validate: () => {
      const stack = Stack.of(scope);
      const statements: StatementJson[] = Array.isArray(policy)
        ? policy.map((statement) => stack.resolve(statement.toStatementJson()))
        : asArray(stack.resolve((policy as iam.PolicyDocument).toJSON())?.Statement);
      const findings = new Set<string>();
      for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
        for (const action of asArray(statement.Action)) if (action.includes('*')) findings.add(`Action::${action}`);
        for (const resource of asArray(statement.Resource).map(flattenCfnReference)) {
          if (resource.includes('*')) findings.add(`Resource::${resource}`);
        }
      }
      for (const finding of findings) Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
      return [];
    },
  });
}

/**
 * The findings on CDK's custom resource provider framework, whose function and role CDK owns:
 * it runs only during deployments, to invoke our handler (any version of it, hence `:*`).
 */
export function acknowledgeCustomResourceProvider(provider: cr.Provider): void {
  const reason = "CDK's custom resource provider framework: CDK sets its runtime and policies; it runs only during deployments to invoke our handler.";
  const framework = provider.node.findChild('framework-onEvent') as lambda.Function;
  Validations.of(framework).acknowledge(
    { id: 'AwsSolutions-L1', reason },
    { id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', reason },
  );
  const defaultPolicy = framework.role!.node.findChild('DefaultPolicy') as iam.Policy;
  acknowledgeWildcardPermissions(defaultPolicy, defaultPolicy.document, reason);
}
