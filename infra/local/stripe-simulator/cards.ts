import type { ParamReader } from './params.js';
import { StripeApiError } from './errors.js';
import type { CardDetails } from './objects.js';

/** Why a card payment fails: Stripe's code, decline code and customer-facing message. */
export interface CardFailure {
  code: string;
  decline_code?: string;
  message: string;
  param?: string;
}

export interface Card {
  details: CardDetails;
  /** Set for Stripe's decline test cards: the charge is attempted and fails. */
  failure?: CardFailure;
  /** Set for cards whose bank asks for 3-D Secure on every payment, on-session or off. */
  alwaysAuthenticate?: true;
  /** Set for Stripe's dispute test card: the charge succeeds, then its cardholder disputes it as fraudulent at once. */
  disputed?: true;
  /** The test number, which a saved PaymentMethod keeps to behave the same later. */
  number: string;
}

interface TestCard {
  brand: 'amex' | 'mastercard' | 'visa';
  funding: 'credit' | 'debit';
  failure?: CardFailure;
  alwaysAuthenticate?: true;
  disputed?: true;
}

const declined = (declineCode: string, message = 'Your card was declined.'): CardFailure => ({ code: 'card_declined', decline_code: declineCode, message });

/** Stripe's test card numbers (docs.stripe.com/testing) that the simulator knows, and how each behaves. */
const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa', funding: 'credit' },
  '4000056655665556': { brand: 'visa', funding: 'debit' },
  '5555555555554444': { brand: 'mastercard', funding: 'credit' },
  '378282246310005': { brand: 'amex', funding: 'credit' },
  // "Always authenticate": 3-D Secure on every payment, even off-session with a card set up for it.
  '4000002760003184': { brand: 'visa', funding: 'credit', alwaysAuthenticate: true },
  // "Fraudulent" dispute: the charge succeeds, then is disputed as fraudulent.
  '4000000000000259': { brand: 'visa', funding: 'credit', disputed: true },
  '4000000000000002': { brand: 'visa', funding: 'credit', failure: declined('generic_decline') },
  '4000000000009995': { brand: 'visa', funding: 'credit', failure: declined('insufficient_funds', 'Your card has insufficient funds.') },
  '4000000000009987': { brand: 'visa', funding: 'credit', failure: declined('lost_card') },
  '4000000000009979': { brand: 'visa', funding: 'credit', failure: declined('stolen_card') },
  '4000000000000069': { brand: 'visa', funding: 'credit', failure: { code: 'expired_card', message: 'Your card has expired.', param: 'exp_month' } },
  '4000000000000127': { brand: 'visa', funding: 'credit', failure: { code: 'incorrect_cvc', message: "Your card's security code is incorrect.", param: 'cvc' } },
  '4000000000000119': {
    brand: 'visa',
    funding: 'credit',
    failure: { code: 'processing_error', message: 'An error occurred while processing your card. Try again in a little bit.' },
  },
};

/** Stripe's test PaymentMethod ids, what server-side code uses instead of raw numbers. */
const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_visa_debit: '4000056655665556',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_authenticationRequired: '4000002760003184',
  pm_card_createDispute: '4000000000000259',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedLostCard: '4000000000009987',
  pm_card_chargeDeclinedStolenCard: '4000000000009979',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
  pm_card_chargeDeclinedIncorrectCvc: '4000000000000127',
  pm_card_chargeDeclinedProcessingError: '4000000000000119',
};

/** Card details Stripe rejects before any charge: a 402 card_error, and the PaymentIntent is left as it was. */
const invalidCard = (code: string, message: string, param: string) => new StripeApiError(402, { type: 'card_error', code, message, param });

export const testCard = (number: string, expMonth: number, expYear: number): Card | undefined => {
  const card = TEST_CARDS[number];
  if (!card) return undefined;
  return {
    details: { brand: card.brand, country: 'US', exp_month: expMonth, exp_year: expYear, funding: card.funding, last4: number.slice(-4) },
    number,
    ...(card.failure ? { failure: card.failure } : {}),
    ...(card.alwaysAuthenticate ? { alwaysAuthenticate: true } : {}),
    ...(card.disputed ? { disputed: true } : {}),
  };
};

/** The card behind a test PaymentMethod id such as `pm_card_visa`, valid through next year. */
export function cardOfTestPaymentMethod(id: string): Card | undefined {
  const number = Object.hasOwn(TEST_PAYMENT_METHODS, id) ? TEST_PAYMENT_METHODS[id] : undefined;
  return number === undefined ? undefined : testCard(number, 12, new Date().getFullYear() + 1);
}

/** Reads `payment_method_data[card]` as a browser card form sends it, checking it as Stripe does. */
export function cardOfDetails(card: ParamReader, now = new Date()): Card {
  const number = card.requiredString('number').replace(/[\s-]/g, '');
  const month = Number(card.requiredString('exp_month'));
  const rawYear = card.requiredString('exp_year');
  const year = rawYear.length === 2 ? 2000 + Number(rawYear) : Number(rawYear);
  const cvc = card.string('cvc');

  const known = testCard(number, month, year);
  if (!known) throw invalidCard('incorrect_number', 'Your card number is incorrect.', 'number');
  if (!Number.isInteger(month) || month < 1 || month > 12) throw invalidCard('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
  const thisYear = now.getFullYear();
  if (!Number.isInteger(year) || year < thisYear || year > thisYear + 50) throw invalidCard('invalid_expiry_year', "Your card's expiration year is invalid.", 'exp_year');
  if (year === thisYear && month < now.getMonth() + 1) throw invalidCard('invalid_expiry_month', "Your card's expiration month is invalid.", 'exp_month');
  const cvcLength = known.details.brand === 'amex' ? 4 : 3;
  if (cvc !== undefined && !new RegExp(`^\\d{${cvcLength}}$`).test(cvc)) throw invalidCard('invalid_cvc', "Your card's security code is invalid.", 'cvc');
  return known;
}
