export { loadLandingScreen, loadTermsOfServiceScreen, loadPrivacyPolicyScreen } from './routes';
