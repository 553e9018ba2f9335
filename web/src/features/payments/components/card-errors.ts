import { MSG } from '../../../../../shared/messages';

/** What a card confirmation reports when it fails: Stripe's error `type` and its message (Stripe.js and the simulator alike). */
export interface CardError {
  type?: string;
  message?: string;
}

/** Spec 1 §8 "Card errors": the text shown for a failed card confirmation. */
export function cardErrorText(error: CardError): string {
  switch (error.type) {
    case 'card_error':
      return error.message || MSG.payments.cardDeclined;
    case 'validation_error':
    case 'invalid_request_error':
      return MSG.payments.checkCard;
    case 'api_connection_error':
      return MSG.backend.network;
    case 'rate_limit_error':
      return MSG.payments.tooManyRequests;
    default:
      return MSG.payments.failed;
  }
}
