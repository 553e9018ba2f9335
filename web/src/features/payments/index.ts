export { loadWorkerEarningsScreen } from './routes';

export { CardPaymentStep } from './components/CardPaymentStep';
export { PaymentAccountActions } from './components/PaymentAccountActions';
export { PaymentAccountNeeded } from './components/PaymentAccountNeeded';
export { PaymentAccountBadge, PaymentStatusCard } from './components/PaymentStatusCard';
export { usePaymentAccountSync } from './hooks/usePaymentAccount';
export { useStripeSetupReturn } from './hooks/useStripeSetupReturn';
export { isPaymentSetupComplete } from './payment-account';
