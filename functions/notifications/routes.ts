import {
  EVENT_SOURCE,
  NOTIFICATION_EVENT,
  type EventRule,
  type HttpRouteGroup,
  type QueueConsumer,
  type TopicConsumer,
} from '../declarations.js';

/**
 * The notifications feature's functions: its part of HTTP_ROUTE_GROUPS, EVENT_RULES,
 * QUEUE_CONSUMERS and TOPIC_CONSUMERS, which functions/routes.ts gathers from every feature (the
 * same names and shapes there).
 */
export const HTTP_ROUTE_GROUPS = {
  notifications: {
    entry: 'functions/notifications/http/notifications.ts',
    capabilities: ['table:read', 'table:write'],
    routes: {
      'GET /me/notifications': 'user',
      'GET /me/notifications/unread-count': 'user',
      'POST /me/notifications/{id}/read': 'user',
      'POST /me/notifications/read-all': 'user',
    },
  },
  /** RFC 8058 one-click unsubscribe: the signed token in the link is the only credential. */
  unsubscribe: {
    entry: 'functions/notifications/http/unsubscribe.ts',
    capabilities: ['table:read', 'table:write', 'mail:unsubscribe-key'],
    routes: {
      'POST /unsubscribe': 'public',
    },
  },
  /** Web push (issue 25): the key a browser subscribes with, and the caller's subscriptions. */
  pushSubscriptions: {
    entry: 'functions/notifications/http/push-subscriptions.ts',
    capabilities: ['table:read', 'table:write', 'push:vapid'],
    routes: {
      'GET /push/public-key': 'public',
      'PUT /me/push-subscriptions': 'user',
      'DELETE /me/push-subscriptions': 'user',
    },
  },
} as const satisfies Record<string, HttpRouteGroup>;

export const EVENT_RULES = {
  notificationPush: {
    description: 'Delivers new notifications live to the user they are for',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created, NOTIFICATION_EVENT.createdInBulk, NOTIFICATION_EVENT.read] },
    entry: 'functions/notifications/events/notification-push.ts',
    capabilities: ['table:read', 'table:write', 'sockets:push'],
  },
  notificationWebPush: {
    description: 'Sends each new notification by web push to the browsers of its user who chose push for its type',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created, NOTIFICATION_EVENT.createdInBulk] },
    entry: 'functions/notifications/events/notification-web-push.ts',
    /** The mail queue holds a push back during the user's quiet hours, as it holds email (QUEUE_CONSUMERS.mailer pushes it after). */
    capabilities: ['table:read', 'table:write', 'push:vapid', 'queue:mail'],
  },
  notificationMail: {
    description: 'Queues every new notification for the mailer, which decides whether and when it goes by email',
    pattern: { source: [EVENT_SOURCE.notifications], 'detail-type': [NOTIFICATION_EVENT.created] },
    entry: 'functions/notifications/events/notification-mail.ts',
    capabilities: ['queue:mail'],
  },
} as const satisfies Record<string, EventRule>;

export const QUEUE_CONSUMERS = {
  /**
   * One message per notification (queued by EVENT_RULES.notificationMail), or per email or web
   * push held back by quiet hours: sends it once (keyed by notification and channel) if the
   * user wants it by that channel.
   */
  mailer: {
    description: 'Emails a notification to its user through SES, or pushes one held back by quiet hours, once, honouring their preferences and quiet hours',
    entry: 'functions/notifications/queues/mailer.ts',
    capabilities: ['table:read', 'table:write', 'mail:send', 'mail:unsubscribe-key', 'queue:mail', 'push:vapid'],
    /** Links in the email: the subject on the site, and the one-click unsubscribe on the API. */
    settings: ['mailLinkOrigin', 'apiUrl'],
    batchSize: 5,
    timeoutSeconds: 30,
  },
} as const satisfies Record<string, QueueConsumer>;

export const TOPIC_CONSUMERS = {
  /**
   * The SES configuration set's bounce and complaint events (the mailer sends with it): records
   * a suppression for the address, so the mailer stops emailing it
   * (docs/decisions/0219-email-bounces-and-complaints-stop-email-to-the-address.md).
   */
  sesFeedback: {
    description: 'Stops email to an address that bounced permanently or complained (SES feedback through SNS)',
    entry: 'functions/notifications/topics/ses-feedback.ts',
    capabilities: ['table:write'],
  },
} as const satisfies Record<string, TopicConsumer>;
