/**
 * What screens hand each other in router navigation state. History state survives reloads and
 * can hold anything, so it is read defensively.
 */
export interface NavigationState {
  /** The address being signed up / verified / signed in with. */
  email?: string;
  /** Where a guard sent the visitor away from; sign-in returns there. */
  from?: string;
  /** Set by email verification: the first sign-in ends on the welcoming dashboard. */
  welcome?: boolean;
  /** Set by the poster dashboard's 'Complete payment': the unpaid draft's page opens on its card step. */
  resumePayment?: boolean;
}

export function readNavigationState(state: unknown): NavigationState {
  if (typeof state !== 'object' || state === null) return {};
  const { email, from, welcome, resumePayment } = state as Record<string, unknown>;
  return {
    ...(typeof email === 'string' && email ? { email } : {}),
    ...(typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? { from } : {}),
    ...(welcome === true ? { welcome } : {}),
    ...(resumePayment === true ? { resumePayment } : {}),
  };
}
