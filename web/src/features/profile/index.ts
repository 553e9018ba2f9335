export { loadProfileScreen, loadPublicProfileScreen, loadWorkerOnboardingScreen } from './routes';

export { Avatar } from './components/Avatar';
export { ProfileCard } from './components/ProfileCard';
export { WelcomeBanner } from './components/WelcomeBanner';
