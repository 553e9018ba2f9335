import { Stack, type StackProps } from 'aws-cdk-lib';
import type * as events from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import { EVENT_RULES } from '../../functions/routes.js';
import type { FunctionResources } from '../constructs/app-function.js';
import { EventSubscription } from '../constructs/event-subscription.js';
import { pascalCase } from '../constructs/names.js';

export interface EventsStackProps extends StackProps {
  /** The application's bus (ApiStack.eventBus), which the rules match on. */
  readonly eventBus: events.IEventBus;
  /** What the API stack offers its functions (ApiStack.functionResources): the rules' functions get the same. */
  readonly functionResources: FunctionResources;
}

/**
 * The event rules (EVENT_RULES), each with its function and dead-letter queue: a stack of their
 * own so that no stack nears CloudFormation's resource quota. The references all go one way,
 * from here to the API stack (bus, queues, WebSocket stage, auto-release group). Holds no data.
 */
export class EventsStack extends Stack {
  readonly subscriptions: Readonly<Record<keyof typeof EVENT_RULES, EventSubscription>>;

  constructor(scope: Construct, id: string, props: EventsStackProps) {
    super(scope, id, props);
    this.subscriptions = Object.fromEntries(
      Object.entries(EVENT_RULES).map(([name, rule]) => [
        name,
        new EventSubscription(this, pascalCase(name), { eventBus: props.eventBus, rule, functionResources: props.functionResources }),
      ]),
    ) as Record<keyof typeof EVENT_RULES, EventSubscription>;
  }
}
