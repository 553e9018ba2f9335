import { createContext, useCallback, useContext, useEffect, useEffectEvent, useState, type ReactNode } from 'react';
import { openLiveSocket, type LiveMessage } from '../live/socket';
import { useAuth } from './useAuth';
import { useConfig } from './useConfig';

type LiveListener = (message: LiveMessage) => void;
type Subscribe = (listener: LiveListener) => () => void;

const LiveUpdatesContext = createContext<Subscribe | null>(null);

/**
 * One WebSocket for the whole app, opened as the current user (or anonymously) and reopened
 * when the user changes, so the server pushes exactly what this viewer may receive.
 */
export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const { webSocketUrl } = useConfig();
  const { status, userId } = useAuth();
  const [listeners] = useState(() => new Set<LiveListener>());
  const identity = status === 'loading' ? null : (userId ?? 'anonymous');

  useEffect(() => {
    if (identity === null) return;
    return openLiveSocket(webSocketUrl, (message) => listeners.forEach((listener) => listener(message)));
  }, [webSocketUrl, identity, listeners]);

  const subscribe = useCallback<Subscribe>(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    [listeners],
  );

  return <LiveUpdatesContext.Provider value={subscribe}>{children}</LiveUpdatesContext.Provider>;
}

/** Calls `listener` (always its latest version) for every message the server pushes. */
export function useLiveUpdates(listener: LiveListener): void {
  const subscribe = useContext(LiveUpdatesContext);
  if (!subscribe) throw new Error('useLiveUpdates needs a LiveUpdatesProvider');
  const onMessage = useEffectEvent(listener);
  useEffect(() => subscribe((message) => onMessage(message)), [subscribe]);
}
