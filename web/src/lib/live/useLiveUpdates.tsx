import { createContext, useContext, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import type { LiveMessage } from '../../../../shared/api';
import { openLiveSocket, type LiveSocket } from './socket';
import { useAuth } from '../auth/useAuth';
import { useConfig } from '../useConfig';

type LiveListener = (message: LiveMessage) => void;
/** `caughtUp`: the job changes missed while disconnected were sent; false, read again what is shown. */
type ReconnectListener = (caughtUp: boolean) => void;

interface LiveUpdates {
  subscribe(listener: LiveListener): () => void;
  subscribeReconnect(listener: ReconnectListener): () => void;
  /** Asks for a live topic's changes while the returned function is not called (counted per topic). */
  watchTopic(topic: string): () => void;
}

const LiveUpdatesContext = createContext<LiveUpdates | null>(null);

/**
 * One WebSocket for the whole app, opened as the current user (or anonymously) and reopened
 * when the user changes, so the server pushes exactly what this viewer may receive. It is
 * subscribed to the topics the mounted screens watch (useLiveTopics), each while any watches it.
 */
export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const { webSocketUrl } = useConfig();
  const { status, userId } = useAuth();
  const [listeners] = useState(() => new Set<LiveListener>());
  const [reconnectListeners] = useState(() => new Set<ReconnectListener>());
  const [watchers] = useState(() => new Map<string, number>());
  const socketRef = useRef<LiveSocket | null>(null);
  const identity = status === 'loading' ? null : (userId ?? 'anonymous');

  useEffect(() => {
    if (identity === null) return;
    const socket = openLiveSocket(webSocketUrl, [...watchers.keys()], {
      onMessage: (message) => listeners.forEach((listener) => listener(message)),
      onReconnect: (caughtUp) => reconnectListeners.forEach((listener) => listener(caughtUp)),
    });
    socketRef.current = socket;
    return () => {
      socketRef.current = null;
      socket.close();
    };
  }, [webSocketUrl, identity, listeners, reconnectListeners, watchers]);

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
      watchTopic(topic) {
        const count = watchers.get(topic) ?? 0;
        watchers.set(topic, count + 1);
        if (count === 0) socketRef.current?.subscribe([topic]);
        return () => {
          const left = (watchers.get(topic) ?? 1) - 1;
          if (left > 0) return void watchers.set(topic, left);
          watchers.delete(topic);
          socketRef.current?.unsubscribe([topic]);
        };
      },
    }),
    [listeners, reconnectListeners, watchers],
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
  useEffect(() => subscribeReconnect((caughtUp) => onReconnect(caughtUp)), [subscribeReconnect]);
}

/** Receives the job changes of these live topics (shared/live.ts) while mounted. */
export function useLiveTopics(topics: readonly string[]): void {
  const { watchTopic } = useLiveUpdatesContext();
  const key = JSON.stringify(topics);
  useEffect(() => {
    const unwatch = (JSON.parse(key) as string[]).map((topic) => watchTopic(topic));
    return () => unwatch.forEach((stop) => stop());
  }, [key, watchTopic]);
}
