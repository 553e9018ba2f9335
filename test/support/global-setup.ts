import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb.js';
import { freePort } from '../../infra/local/processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
  }
}

/** One in-memory DynamoDB Local for the whole run; test files isolate by table name. */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal({ port: await freePort() });
  project.provide('dynamoDbEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
