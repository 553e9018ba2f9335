import { createContext, useContext, useEffect, useEffectEvent, useMemo, useState, type ReactNode } from 'react';
import type { LiveMessage } from '../../../../shared/api';
import { openLiveSocket } from './socket';
import { useAuth } from '../auth/useAuth';
import { useConfig } from '../useConfig';

type LiveListener = (message: LiveMessage) => void;
type ReconnectListener = () => void;

interface LiveUpdates {
  subscribe(listener: LiveListener): () => void;
  subscribeReconnect(listener: ReconnectListener): () => void;
}

const LiveUpdatesContext = createContext<LiveUpdates | null>(null);

/**
 * One WebSocket for the whole app, opened as the current user (or anonymously) and reopened
 * when the user changes, so the server pushes exactly what this viewer may receive.
 */
export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const { webSocketUrl } = useConfig();
  const { status, userId } = useAuth();
  const [listeners] = useState(() => new Set<LiveListener>());
  const [reconnectListeners] = useState(() => new Set<ReconnectListener>());
  const identity = status === 'loading' ? null : (userId ?? 'anonymous');

  useEffect(() => {
    if (identity === null) return;
    return openLiveSocket(
      webSocketUrl,
      (message) => listeners.forEach((listener) => listener(message)),
      () => reconnectListeners.forEach((listener) => listener()),
    );
  }, [webSocketUrl, identity, listeners, reconnectListeners]);

  const live = useMemo<LiveUpdates>(
    () => ({
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      subscribeReconnect(listener) {
        reconnectListeners.add(listener);
        return () => reconnectListeners.delete(listener);
      },
    }),
    [listeners, reconnectListeners],
  );

  return <LiveUpdatesContext.Provider value={live}>{children}</LiveUpdatesContext.Provider>;
}

function useLiveUpdatesContext(): LiveUpdates {
  const live = useContext(LiveUpdatesContext);
  if (!live) throw new Error('useLiveUpdates needs a LiveUpdatesProvider');
  return live;
}

/** Calls `listener` (always its latest version) for every message the server pushes. */
export function useLiveUpdates(listener: LiveListener): void {
  const { subscribe } = useLiveUpdatesContext();
  const onMessage = useEffectEvent(listener);
  useEffect(() => subscribe((message) => onMessage(message)), [subscribe]);
}

/** Calls `listener` (always its latest version) when the socket is back after a lost connection. */
export function useLiveReconnect(listener: ReconnectListener): void {
  const { subscribeReconnect } = useLiveUpdatesContext();
  const onReconnect = useEffectEvent(listener);
  useEffect(() => subscribeReconnect(() => onReconnect()), [subscribeReconnect]);
}
