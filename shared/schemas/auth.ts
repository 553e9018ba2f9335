import { z } from 'zod';
import { MSG } from '../messages.js';
import { ROLES } from '../roles.js';

export const PASSWORD_MIN_LENGTH = 8;

/** The sign-up form. The same rules run in the browser and in the pre-sign-up trigger. */
export const signUpSchema = z
  .object({
    name: z.string().trim().min(1, MSG.auth.allFieldsRequired).max(100),
    email: z.string().trim().toLowerCase().min(1, MSG.auth.allFieldsRequired).pipe(z.email(MSG.auth.invalidEmail)),
    password: z.string().min(1, MSG.auth.allFieldsRequired).min(PASSWORD_MIN_LENGTH, MSG.auth.passwordTooShort),
    confirmPassword: z.string().min(1, MSG.auth.allFieldsRequired),
    role: z.enum(ROLES, MSG.auth.invalidRole),
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: MSG.auth.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type SignUpForm = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, MSG.auth.emailAndPasswordRequired),
  password: z.string().min(1, MSG.auth.emailAndPasswordRequired),
});
export type SignInForm = z.input<typeof signInSchema>;
