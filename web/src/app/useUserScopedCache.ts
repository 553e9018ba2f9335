import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useAuth } from '../lib/auth/useAuth';

/** Empties the query cache when the signed-in user changes, so nobody sees another user's data. */
export function useUserScopedCache(): void {
  const queryClient = useQueryClient();
  const { status, userId } = useAuth();
  const identity = status === 'loading' ? undefined : userId;
  const previous = useRef(identity);
  useEffect(() => {
    if (identity === undefined) return;
    if (previous.current !== undefined && previous.current !== identity) queryClient.clear();
    previous.current = identity;
  }, [identity, queryClient]);
}
