import { Aws, CustomResource, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as cr from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';
import type { AdminSeatProperties } from '../../functions/people/deploy/admin-seat.js';
import { COGNITO_TRIGGERS, DEPLOY_FUNCTIONS, TOPIC_CONSUMERS } from '../../functions/routes.js';
import { AppFunction, type FunctionResources } from '../constructs/app-function.js';
import { MailFeedback } from '../constructs/mail-feedback.js';
import { acknowledgeCustomResourceProvider } from '../constructs/nag.js';
import type { DataCapabilities } from '../constructs/data-capabilities.js';
import { pascalCase } from '../constructs/names.js';
import { ADMIN_GROUP } from '../../shared/roles.js';
import { USER_POOL_SETTINGS } from '../user-pool-settings.js';

export interface AuthStackProps extends StackProps {
  /** What the triggers' `table:*` and `images:*` capabilities grant. */
  readonly dataCapabilities: DataCapabilities;
  /** Who the deploy makes the admin (Cognito invites the address with a temporary password). */
  readonly adminEmail: string;
  /**
   * Any new value mails the admin's invitation again (while the admin has not yet chosen a
   * password); the same value as the last deploy's, or none, sends nothing.
   */
  readonly resendAdminInvitation?: string;
  /**
   * The pool's mail goes through SES from this address, whose domain is verified in SES in
   * the pool's region. @default Cognito's own sender (a small daily quota)
   */
  readonly sesFromAddress?: string;
}

/**
 * The user pool, its groups, the web app's client and the pool's triggers. Stateful: the pool
 * holds every account, so it is never replaced and survives the deletion of the stack.
 */
export class AuthStack extends Stack {
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  /** The `iss` claim of the pool's tokens. */
  readonly tokenIssuer: string;
  /**
   * The mailer's SES configuration set, its bounce and complaint topic and the function
   * subscribed to it: beside the pool's own SES sender, and out of the API stack's resource budget.
   */
  readonly mailFeedback: MailFeedback;

  constructor(scope: Construct, id: string, props: AuthStackProps) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      standardAttributes: {
        email: { required: true, mutable: true },
        fullname: { required: true, mutable: true },
      },
      customAttributes: Object.fromEntries(
        Object.entries(USER_POOL_SETTINGS.customAttributes).map(([name, { maxLength }]) => [
          name,
          new cognito.StringAttribute({ maxLen: maxLength, mutable: true }),
        ]),
      ),
      // Length only: the spec's one password rule, which the web app checks with the same message.
      passwordPolicy: {
        minLength: USER_POOL_SETTINGS.passwordMinLength,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: USER_POOL_SETTINGS.verificationEmail.subject,
        emailBody: USER_POOL_SETTINGS.verificationEmail.body,
      },
      // A changed email takes effect once its code is verified; until then the user signs in
      // with, and is mailed at, the verified one.
      keepOriginal: { email: true },
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      email: props.sesFromAddress
        ? cognito.UserPoolEmail.withSES({
            fromEmail: props.sesFromAddress,
            fromName: 'OddJobs',
            sesVerifiedDomain: props.sesFromAddress.split('@')[1]!,
            sesRegion: Aws.REGION,
          })
        : undefined,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    Validations.of(this.userPool).acknowledge(
      {
        id: 'AwsSolutions-COG1',
        reason: 'The spec sets one password rule, at least 8 characters; character-class rules would reject passwords the app accepts.',
      },
      { id: 'AwsSolutions-COG2', reason: 'No MFA: a product decision for this marketplace; email verification is required.' },
      {
        id: 'AwsSolutions-COG8',
        reason: 'Essentials plan: threat protection needs the Plus plan, billed per monthly active user; a cost decision for the product owner.',
      },
    );

    const groups = new Map(USER_POOL_SETTINGS.groups.map((groupName) => [groupName, this.userPool.addGroup(`${pascalCase(groupName)}Group`, { groupName })]));

    const authFlows = new Set<string>(USER_POOL_SETTINGS.clientAuthFlows);
    this.userPoolClient = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // Refresh-token auth is always on; no USER_PASSWORD_AUTH (only the local stack needs it).
      authFlows: {
        userSrp: authFlows.has('ALLOW_USER_SRP_AUTH'),
        userPassword: false,
        adminUserPassword: authFlows.has('ALLOW_ADMIN_USER_PASSWORD_AUTH'),
      },
      // What the browser may read and write of a user. email_verified is read-only, so an
      // unverified address never passes for a verified one. custom:role is neither: sign-up
      // sends the role as client metadata (the pre-sign-up trigger keeps it for the profile),
      // and the profile's role is the one every rule reads.
      readAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, emailVerified: true, fullname: true }),
      writeAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, fullname: true }),
      // The web app signs in with direct Cognito API calls (Amplify), never a hosted-UI redirect.
      disableOAuth: true,
      // The spec shows 'user not found' on sign-in.
      preventUserExistenceErrors: false,
    });
    this.tokenIssuer = `https://${this.userPool.userPoolProviderUrl}`;

    // The deploy owns the admin seat (below): the pre-sign-up trigger refuses the admin role.
    const resources: FunctionResources = { managedCapabilities: props.dataCapabilities.byCapability, userPool: this.userPool, settings: { adminSeatByDeploy: 'true' } };
    const triggers = Object.fromEntries(
      Object.entries(COGNITO_TRIGGERS).map(([operation, declaration]) => {
        const trigger = new AppFunction(this, `${pascalCase(operation)}Trigger`, { declaration, resources });
        this.userPool.addTrigger(cognito.UserPoolOperation.of(operation), trigger.function);
        return [operation, trigger];
      }),
    ) as Record<keyof typeof COGNITO_TRIGGERS, AppFunction>;
    const seat = this.seatAdmin(props, resources);
    // AdminCreateUser runs the pre-sign-up trigger and the seat joins the admin group: both
    // exist, and Cognito may invoke the trigger, before the seat is taken.
    const adminGroup = groups.get(ADMIN_GROUP)!;
    // The pool grants itself the invocation (UserPool.addTrigger), beside its other triggers'.
    const preSignUpPermissions = this.userPool.node
      .findAll()
      .filter((child) => child instanceof lambda.CfnPermission && child.functionName === triggers.preSignUp.function.functionArn);
    seat.node.addDependency(adminGroup, ...preSignUpPermissions);

    this.mailFeedback = new MailFeedback(this, 'MailFeedback', {
      consumer: TOPIC_CONSUMERS.sesFeedback,
      functionResources: { managedCapabilities: props.dataCapabilities.byCapability },
    });
  }

  /**
   * The admin is created by the deploy, so no stranger can claim a fresh deployment by
   * signing up first (DECISIONS.md): a custom resource invites `adminEmail`, adds it to the
   * admin group and writes its seat and profile.
   */
  private seatAdmin(props: AuthStackProps, resources: FunctionResources): CustomResource {
    const seatFunction = new AppFunction(this, 'AdminSeatFunction', { declaration: DEPLOY_FUNCTIONS.adminSeat, resources });
    const provider = new cr.Provider(this, 'AdminSeatProvider', { onEventHandler: seatFunction.function });
    acknowledgeCustomResourceProvider(provider);
    const properties: AdminSeatProperties = {
      AdminEmail: props.adminEmail,
      AdminName: 'Admin',
      ...(props.resendAdminInvitation && { ResendInvitation: props.resendAdminInvitation }),
    };
    return new CustomResource(this, 'AdminSeat', { serviceToken: provider.serviceToken, properties, resourceType: 'Custom::AdminSeat' });
  }
}
