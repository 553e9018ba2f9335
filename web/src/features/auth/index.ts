export { loadSignInScreen, loadSignUpScreen, loadVerifyEmailScreen, loadForgotPasswordScreen } from './routes';
