export const loadLandingScreen = () => import('./screens/LandingScreen');
export const loadTermsOfServiceScreen = () => import('./screens/TermsOfServiceScreen');
export const loadPrivacyPolicyScreen = () => import('./screens/PrivacyPolicyScreen');
