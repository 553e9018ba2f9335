import type { ReactNode } from 'react';

/** A form-level message, announced as soon as it appears. */
export function FormError({ children }: { children: ReactNode }) {
  return (
    <div className="form-error" role="alert">
      {children}
    </div>
  );
}
