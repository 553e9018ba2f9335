import { NOTIFICATION_TYPES, type ChannelChoices, type NotificationChannel, type NotificationPreferences, type NotificationType } from './api.js';

/** Spec 2 §9: the radius choices (5 recommended) and daily limits (10 recommended). */
export const RADIUS_OPTIONS = [1, 3, 5, 10, 25] as const;
export const DAILY_LIMIT_OPTIONS = [5, 10, 20, 50] as const;

/** What each notification type is about, in words (the settings page's rows). */
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  new_job_nearby: 'New jobs near you (a daily email digest)',
  job_unassigned: 'You were unassigned from a job',
  job_completed: 'A worker marked your job completed',
  payment_released: 'A payment was released to you',
  job_declined: 'A poster declined your completion',
  dispute_update: 'Disputes: filed, new messages, resolved',
  worker_question: 'A worker asked about your job',
  application_rejected: 'Your application was not chosen',
  application_accepted: 'You were hired for a job',
  job_moderated: 'An admin cancelled or removed your job',
  new_message: 'New chat messages while you are away',
  new_applicant: 'A worker applied to your job',
  payout_failed: 'An instant payout to your card failed',
  payment_paused: 'A poster paused the automatic release of your payment',
  payment_resumed: 'The automatic release of your payment resumed',
  payment_blocked: 'A payment is waiting for a payment account',
  payment_refunded: 'A payment or tip was refunded',
  payment_reversed: 'A released payment was taken back',
  chargeback: "A card's bank disputed a payment (chargeback)",
  identity_verified: 'Your identity was verified',
  identity_needs_retry: 'Your identity check needs another try, or was removed',
  offer_received: 'A worker made an offer on your job',
  offer_changed: 'A worker changed or withdrew their offer',
  counter_offer: 'A poster countered your offer',
  counter_answered: 'A worker answered your counter-offer',
  offer_accepted: 'Your offer was accepted',
  offer_declined: 'Your offer was not chosen',
  question_asked: 'A worker asked a question on your job',
  question_answered: 'A poster answered your question',
  price_change_requested: 'A worker asked to change the price of your job',
  price_change_approved: 'A poster approved your price change',
  price_change_declined: 'A poster declined your price change',
  payment_charged: 'Your card was charged the difference of a higher price',
  saved_search_match: 'A new job matches a search you saved (in the daily email digest)',
};

/**
 * DECISIONS.md "Off-site delivery": email by default for money, assignment, disputes,
 * moderation and the daily nearby digest, so for every type but questions (chat email is
 * batched, and opt-in).
 */
const NO_EMAIL_BY_DEFAULT: ReadonlySet<NotificationType> = new Set<NotificationType>(['worker_question']);

/** In-app for every type; push for none until the user opts in. */
const defaultChannels = (type: NotificationType): ChannelChoices => ({ inApp: true, email: !NO_EMAIL_BY_DEFAULT.has(type), push: false });

/**
 * The user's channels for every type: what they chose, the defaults for the rest (profiles
 * saved before channels existed, and types added since).
 */
export function channelsWithDefaults(chosen: Partial<Record<NotificationType, ChannelChoices>> | undefined): Record<NotificationType, ChannelChoices> {
  return Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, chosen?.[type] ?? defaultChannels(type)])) as Record<NotificationType, ChannelChoices>;
}

/** Whether a notification of this type goes to the user by this channel. */
export function deliversBy(preferences: { channels?: Partial<NotificationPreferences['channels']> }, type: NotificationType, channel: NotificationChannel): boolean {
  return channelsWithDefaults(preferences.channels)[type][channel];
}

/** Defaults of notification_preferences (spec 2 §3), with the channels' defaults. */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  enabled: true,
  radiusMiles: 5,
  maxPerDay: 10,
  quietHours: { enabled: false, start: '22:00', end: '08:00' },
  jobCategories: [],
  channels: channelsWithDefaults(undefined),
};

/** Spec 2 §9: the page fetches 50, the bell shows 10, the badge caps at 99+. */
export const NOTIFICATION_LIMITS = { page: 50, bell: 10, badgeCap: 99 } as const;

/**
 * Spec 2 §9 sort: completed, then unassigned (the urgent types), then payment released, job
 * declined and new job nearby, then the rest; newest first within each rank.
 */
const SORT_RANK: Partial<Record<NotificationType, number>> = {
  job_completed: 0,
  job_unassigned: 1,
  payment_released: 2,
  job_declined: 2,
  new_job_nearby: 2,
};
export const URGENT_NOTIFICATION_TYPES: readonly NotificationType[] = ['job_completed', 'job_unassigned'];

export function compareNotifications(a: { type: NotificationType; createdAt: string }, b: { type: NotificationType; createdAt: string }): number {
  const rank = (SORT_RANK[a.type] ?? 3) - (SORT_RANK[b.type] ?? 3);
  return rank !== 0 ? rank : b.createdAt.localeCompare(a.createdAt);
}

/**
 * The bell's notifications: the `count` newest whatever their type (spec 2 §2 "the 10 most
 * recent"); urgency orders the page, it does not choose what the bell hides.
 */
export function newestNotifications<T extends { createdAt: string }>(notifications: readonly T[], count: number = NOTIFICATION_LIMITS.bell): T[] {
  return [...notifications].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, count);
}

/** Spec 2 §4 location freshness. */
export const LOCATION_FRESHNESS = {
  staleAfterDays: 30,
  suggestUpdateAfterDays: 7,
  dismissalDays: 30,
  /** Moving the stored location further than this asks the user to confirm. */
  confirmChangeMiles: 0.5,
} as const;

/** Mean Earth radius in miles (DECISIONS.md "Nearby-job alerts"). */
export const EARTH_RADIUS_MILES = 3959;

/** Great-circle distance in miles (haversine). */
export function distanceMiles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}
