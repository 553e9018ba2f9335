import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type Stripe from 'stripe';
import { MSG } from '../../shared/messages.js';
import { accountStatus, type PaymentAccount } from '../../shared/payments.js';
import { ROLE_HOME, type Role } from '../../shared/roles.js';
import { conditionHeld, db, tableName } from '../lib/db.js';
import { optionalEnv } from '../lib/env.js';
import { badRequest, forbidden } from '../lib/errors.js';
import { stripe } from '../lib/stripe.js';
import { TransactionRefused, retryLostRaces, transactWrite } from '../lib/transactions.js';
import { keys } from '../table.js';
import { getProfile, type ProfileItem } from '../people/profiles.js';

/** What a Stripe account says about our payment-account state (spec 1 §4). */
export function paymentAccountOf(account: Stripe.Account): PaymentAccount {
  const flags = {
    detailsSubmitted: Boolean(account.details_submitted),
    chargesEnabled: Boolean(account.charges_enabled),
    payoutsEnabled: Boolean(account.payouts_enabled),
  };
  // The fast options follow the payout destinations Stripe reports on the account (spec 2 §2
  // "Payout options", docs/decisions/0264-fast-payout-capabilities-follow-the-payout-destinations.md):
  // Instant needs a debit card that takes instant payouts, Express a US bank account; same-day
  // is either of them.
  const destinations = account.external_accounts?.data ?? [];
  const instant = flags.payoutsEnabled && destinations.some((external) => external.object === 'card' && Boolean(external.available_payout_methods?.includes('instant')));
  const express = flags.payoutsEnabled && destinations.some((external) => external.object === 'bank_account' && external.country === 'US');
  return {
    status: accountStatus(flags),
    ...flags,
    instantPayoutsAvailable: instant,
    expressPayoutsAvailable: express,
    sameDayPayoutsAvailable: instant || express,
  };
}

export function isPaymentAccountComplete(profile: Pick<ProfileItem, 'paymentAccount' | 'stripeAccountId'>): boolean {
  return Boolean(profile.stripeAccountId) && profile.paymentAccount.status === 'complete';
}

/** Posting and applying need a complete payment account; admins are exempt (DECISIONS.md). */
export function requirePaymentAccount(profile: ProfileItem, message: string): void {
  if (profile.role !== 'admin' && !isPaymentAccountComplete(profile)) throw forbidden(message);
}

/**
 * The user's Express account, created once: the idempotency key makes concurrent first
 * clicks create one account, and the conditional write keeps the first id ever saved.
 */
async function ensureAccount(profile: ProfileItem): Promise<string> {
  if (profile.stripeAccountId) return profile.stripeAccountId;
  const client = await stripe();
  const account = await client.accounts.create(
    {
      type: 'express',
      country: 'US',
      email: profile.email,
      capabilities: { transfers: { requested: true }, card_payments: { requested: true } },
      metadata: { userId: profile.id },
    },
    { idempotencyKey: `account-${profile.id}` },
  );
  try {
    await retryLostRaces(() =>
      transactWrite([
        {
          Update: {
            TableName: tableName(),
            Key: keys.profile(profile.id),
            UpdateExpression: 'SET stripeAccountId = :account, paymentAccount = :state, updatedAt = :now',
            ConditionExpression: 'attribute_not_exists(stripeAccountId)',
            ExpressionAttributeValues: { ':account': account.id, ':state': paymentAccountOf(account), ':now': new Date().toISOString() },
          },
        },
        { Put: { TableName: tableName(), Item: { ...keys.stripeAccount(account.id), type: 'stripeAccount', userId: profile.id } } },
      ]),
    );
    return account.id;
  } catch (error) {
    if (error instanceof TransactionRefused) {
      const current = await getProfile(profile.id);
      if (current?.stripeAccountId) return current.stripeAccountId;
    }
    throw error;
  }
}

/**
 * The poster's Stripe Customer, created once like the account above: the job payments save the
 * card to it, so a tip can be charged to that card later without the poster present.
 */
export async function ensureCustomer(posterId: string): Promise<string> {
  const profile = await getProfile(posterId);
  if (!profile) throw forbidden(MSG.auth.accountProfileNotFound);
  if (profile.stripeCustomerId) return profile.stripeCustomerId;
  const customer = await (await stripe()).customers.create(
    { email: profile.email, name: profile.name, metadata: { userId: profile.id } },
    { idempotencyKey: `customer-${profile.id}` },
  );
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.profile(profile.id),
      // The first id ever saved stays (a concurrent first payment got the same one from Stripe's idempotency).
      UpdateExpression: 'SET stripeCustomerId = if_not_exists(stripeCustomerId, :customer)',
      ExpressionAttributeValues: { ':customer': customer.id },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return String(Attributes?.stripeCustomerId ?? customer.id);
}

/** Where Stripe sends the user back: the dashboard of their role, or the payment settings. */
function returnUrls(origin: string, role: Role) {
  return {
    return_url: `${origin}${ROLE_HOME[role]}?stripe_setup=success`,
    refresh_url: `${origin}/profile#payment-settings`,
  };
}

/**
 * Where Stripe's onboarding returns to: the site's origin in AWS, whatever Origin a caller
 * sends; locally (no site origin set) the page's own, http(s) only.
 */
export function appOrigin(origin: string | undefined): string {
  const site = optionalEnv('siteOrigin');
  if (site) return site;
  if (!origin || !/^https?:\/\/[^/\s]+$/.test(origin)) throw badRequest('A valid Origin header is required');
  return origin;
}

/** Creates the account if needed and a fresh onboarding link for it. */
export async function startOnboarding(userId: string, origin: string): Promise<{ accountLinkUrl: string }> {
  const profile = await getProfile(userId);
  if (!profile) throw forbidden(MSG.auth.accountProfileNotFound);
  const accountId = await ensureAccount(profile);
  const link = await (await stripe()).accountLinks.create({ account: accountId, type: 'account_onboarding', ...returnUrls(origin, profile.role) });
  return { accountLinkUrl: link.url };
}

/** Saves the state Stripe reports for an account on its user's profile. */
export async function savePaymentAccount(userId: string, account: Stripe.Account): Promise<PaymentAccount> {
  const paymentAccount = paymentAccountOf(account);
  await conditionHeld(
    db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.profile(userId),
        UpdateExpression: 'SET paymentAccount = :state, updatedAt = :now',
        ConditionExpression: 'stripeAccountId = :account',
        ExpressionAttributeValues: { ':state': paymentAccount, ':now': new Date().toISOString(), ':account': account.id },
      }),
    ),
  );
  return paymentAccount;
}

/** Re-reads the caller's account from Stripe (spec: get-stripe-account-status). */
export async function refreshOwnPaymentAccount(userId: string): Promise<PaymentAccount> {
  const profile = await getProfile(userId);
  if (!profile?.stripeAccountId) throw badRequest(MSG.payments.noAccount);
  const account = await (await stripe()).accounts.retrieve(profile.stripeAccountId);
  return savePaymentAccount(userId, account);
}

/** The user a connected account belongs to. */
export async function userOfAccount(accountId: string): Promise<string | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.stripeAccount(accountId) }));
  return Item?.userId as string | undefined;
}
