export { loadProfileScreen, loadPublicProfileScreen, loadWorkerOnboardingScreen } from './routes';

export { WelcomeBanner } from './components/WelcomeBanner';
