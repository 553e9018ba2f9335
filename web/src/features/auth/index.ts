export const loadSignInScreen = () => import('./screens/SignInScreen');
export const loadSignUpScreen = () => import('./screens/SignUpScreen');
export const loadVerifyEmailScreen = () => import('./screens/VerifyEmailScreen');
export const loadForgotPasswordScreen = () => import('./screens/ForgotPasswordScreen');
