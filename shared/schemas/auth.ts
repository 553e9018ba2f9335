import * as z from '../zod.js';
import { MSG } from '../messages.js';
import { ROLES } from '../roles.js';

export const PASSWORD_MIN_LENGTH = 8;

/** The sign-up form. The same rules run in the browser and in the pre-sign-up trigger. */
export const signUpSchema = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1, MSG.auth.allFieldsRequired), z.maxLength(100)),
    email: z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, MSG.auth.allFieldsRequired)), z.email(MSG.auth.invalidEmail)),
    password: z.string().check(z.minLength(1, MSG.auth.allFieldsRequired), z.minLength(PASSWORD_MIN_LENGTH, MSG.auth.passwordTooShort)),
    confirmPassword: z.string().check(z.minLength(1, MSG.auth.allFieldsRequired)),
    role: z.enum(ROLES, MSG.auth.invalidRole),
  })
  .check(z.refine((form) => form.password === form.confirmPassword, { message: MSG.auth.passwordsDoNotMatch, path: ['confirmPassword'] }));
export type SignUpForm = z.input<typeof signUpSchema>;

/** A password chosen anew and its confirmation: a reset (with its code) and Cognito's new-password step. */
export const newPasswordFields = {
  password: z.string().check(z.minLength(PASSWORD_MIN_LENGTH, MSG.auth.passwordTooShort)),
  confirmPassword: z.string(),
};
export const passwordsMatch = z.refine<{ password: string; confirmPassword: string }>((form) => form.password === form.confirmPassword, {
  message: MSG.auth.passwordsDoNotMatch,
  path: ['confirmPassword'],
});

/** The new-password step of a first sign-in with a temporary password. */
export const newPasswordSchema = z.object(newPasswordFields).check(passwordsMatch);
export type NewPasswordForm = z.input<typeof newPasswordSchema>;

export const signInSchema = z.object({
  email: z.string().check(z.trim(), z.toLowerCase(), z.minLength(1, MSG.auth.emailAndPasswordRequired)),
  password: z.string().check(z.minLength(1, MSG.auth.emailAndPasswordRequired)),
});
export type SignInForm = z.input<typeof signInSchema>;
