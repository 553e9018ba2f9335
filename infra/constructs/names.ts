import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** "jobFeed" or "job-feed" -> "JobFeed": construct ids from declaration keys. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** The stage a deployment is when none is given: it keeps the names of the releases before stages. */
export const DEFAULT_STAGE = 'prod';
/** Lower-case letters and digits, short enough for the longest name built on it (the site bucket's). */
export const STAGE_PATTERN = /^[a-z][a-z0-9]{0,9}$/;

/**
 * The names a stage builds on, so several deployments (stages, regions) share an account: its
 * stacks' names, and the prefix of every name that must be unique in the account.
 */
export interface StageNames {
  readonly stage: string;
  /** "Api" -> "OddJobsApi" for the default stage, "OddJobs-staging-Api" for another. */
  stackName(part: string): string;
  /** The lower-case prefix of account-wide names: "oddjobs", or "oddjobs-staging". */
  readonly prefix: string;
}

export function stageNames(stage: string): StageNames {
  const isDefault = stage === DEFAULT_STAGE;
  return {
    stage,
    stackName: (part) => (isDefault ? `OddJobs${part}` : `OddJobs-${stage}-${part}`),
    prefix: isDefault ? 'oddjobs' : `oddjobs-${stage}`,
  };
}

/**
 * A name unique in the account for a resource of `scope`'s stack, for services whose names are
 * global to the account (CloudFront's policies and access controls, CloudWatch dashboards): its
 * stack's name says the stage, the region the deployment.
 */
export const accountUniqueName = (scope: IConstruct, part: string): string => `${Stack.of(scope).stackName}-${Stack.of(scope).region}-${part}`;

/**
 * How the name of a declaration's dead-letter queue begins, in the api stack `apiStackName`:
 * CloudFormation names a queue after its stack and logical id (the subscription's construct id
 * and "DeadLetterQueue", then a hash), and adds a suffix. The redrive script finds it by this.
 */
export const deadLetterQueuePrefix = (apiStackName: string, declarationName: string): string => `${apiStackName}-${pascalCase(declarationName)}DeadLetterQueue`;
