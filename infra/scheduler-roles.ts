/**
 * The execution role of an EventBridge Scheduler schedule group, as plain IAM JSON: the CDK app
 * builds its roles from it (infra/constructs/release-schedules.ts, recurring-schedule.ts) and the
 * local Scheduler (infra/local/scheduler.ts) refuses an invocation these documents would not allow.
 */

/** What one schedule group's role covers. Values may be CDK tokens (the app) or local ARNs. */
export interface ScheduleGroupRoleScope {
  readonly account: string;
  /** `arn:<partition>:scheduler:<region>:<account>:schedule-group/<name>`. */
  readonly groupArn: string;
  /** The Lambda function the group's schedules invoke (its unqualified ARN). */
  readonly targetArn: string;
  /** The SQS queue the group's schedules send what they could not deliver to (DeadLetterConfig). */
  readonly deadLetterQueueArn: string;
}

export interface PolicyStatementJson {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | readonly string[];
  readonly Resource?: string | readonly string[];
  /** A service principal, or `*`: anyone (a resource policy's deny of every caller). */
  readonly Principal?: { readonly Service: string } | '*';
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

export const SCHEDULER_PRINCIPAL = 'scheduler.amazonaws.com';

/**
 * The trust condition AWS documents against the confused deputy ("Confused deputy prevention in
 * EventBridge Scheduler"): aws:SourceArn is the schedule group's ARN, never a schedule's or a
 * name prefix (Scheduler sets it to the group's), and aws:SourceAccount the account.
 */
export const schedulerTrustCondition = (scope: Pick<ScheduleGroupRoleScope, 'account' | 'groupArn'>) => ({
  StringEquals: { 'aws:SourceAccount': scope.account, 'aws:SourceArn': scope.groupArn },
});

/** The role's trust policy statement. */
export const schedulerTrustStatement = (scope: Pick<ScheduleGroupRoleScope, 'account' | 'groupArn'>): PolicyStatementJson => ({
  Effect: 'Allow',
  Principal: { Service: SCHEDULER_PRINCIPAL },
  Action: 'sts:AssumeRole',
  Condition: schedulerTrustCondition(scope),
});

/**
 * What the role may do: invoke the target function (unqualified, as schedules name it), and send
 * to the dead-letter queue, which Scheduler does as this role (the queue is SQS-encrypted, so no
 * KMS permission is needed).
 */
export const schedulerRoleStatements = (scope: Pick<ScheduleGroupRoleScope, 'targetArn' | 'deadLetterQueueArn'>): PolicyStatementJson[] => [
  { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: scope.targetArn },
  { Effect: 'Allow', Action: 'sqs:SendMessage', Resource: scope.deadLetterQueueArn },
];

/** The ARN of a schedule group (what Scheduler passes as aws:SourceArn). */
export const scheduleGroupArn = (partition: string, region: string, account: string, group: string) => `arn:${partition}:scheduler:${region}:${account}:schedule-group/${group}`;

/** A role as the local Scheduler knows it: its trust statements and its permission statements. */
export interface RoleDocuments {
  readonly trust: readonly PolicyStatementJson[];
  readonly permissions: readonly PolicyStatementJson[];
}

const list = (value: string | readonly string[] | undefined): readonly string[] => (value === undefined ? [] : typeof value === 'string' ? [value] : value);
/** IAM's wildcard match (`*` any run of characters, `?` one), case-sensitive as ARNs are. */
const wildcardMatch = (pattern: string, value: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`).test(value);

const CONDITION_OPERATORS: Readonly<Record<string, (expected: string, actual: string) => boolean>> = {
  StringEquals: (expected, actual) => expected === actual,
  StringLike: wildcardMatch,
  ArnEquals: (expected, actual) => expected === actual,
  ArnLike: wildcardMatch,
  Bool: (expected, actual) => expected === actual,
};

/** Whether every condition of a statement holds for the request's context keys (an unknown operator holds nothing). */
function conditionsHold(condition: PolicyStatementJson['Condition'], context: Readonly<Record<string, string>>): boolean {
  return Object.entries(condition ?? {}).every(([operator, keys]) => {
    const test = CONDITION_OPERATORS[operator];
    return (
      test !== undefined &&
      Object.entries(keys).every(([key, expected]) => {
        const actual = context[key];
        return actual !== undefined && list(expected).some((value) => test(value, actual));
      })
    );
  });
}

/** Whether a statement's principal covers a service's request (a statement without one covers none). */
const principalMatches = (principal: PolicyStatementJson['Principal'], service: string) =>
  principal === '*' || principal?.Service === service;

/**
 * IAM's decision for one request: allowed when an Allow statement matches and no Deny does.
 * `principal` is checked for trust policies (a service principal), absent for identity policies.
 */
export function policyAllows(
  statements: readonly PolicyStatementJson[],
  request: { action: string; resource?: string; principal?: string; context?: Readonly<Record<string, string>> },
): boolean {
  const matches = (statement: PolicyStatementJson) =>
    list(statement.Action).some((action) => wildcardMatch(action, request.action)) &&
    (request.principal === undefined || principalMatches(statement.Principal, request.principal)) &&
    (request.resource === undefined || list(statement.Resource).some((resource) => wildcardMatch(resource, request.resource!))) &&
    conditionsHold(statement.Condition, request.context ?? {});
  return !statements.some((statement) => statement.Effect === 'Deny' && matches(statement)) && statements.some((statement) => statement.Effect === 'Allow' && matches(statement));
}
