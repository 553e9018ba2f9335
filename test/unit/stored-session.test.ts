import { DefaultTokenStore } from 'aws-amplify/auth/cognito';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '../../shared/runtime-config.js';
import * as session from '../../web/src/lib/auth/session.js';
import { MemoryStorage } from '../support/memory-storage.js';

const storage = new MemoryStorage();
const CONFIG = { userPoolId: 'us-east-1_pool', userPoolClientId: 'client-1' } as RuntimeConfig;

describe('telling a kept session from none without loading Amplify (web/src/lib/auth/session.ts)', () => {
  beforeAll(() => {
    Object.assign(globalThis, { window: { localStorage: storage } });
    session.configureAuth(CONFIG);
  });

  /** Amplify's own token store, writing where the app's Amplify writes: the check must read its format. */
  function amplifyTokenStore(userPoolClientId = CONFIG.userPoolClientId): DefaultTokenStore {
    const store = new DefaultTokenStore();
    store.setAuthConfig({ Cognito: { userPoolId: CONFIG.userPoolId, userPoolClientId } });
    store.setKeyValueStorage({
      setItem: async (key, value) => storage.setItem(key, value),
      getItem: async (key) => storage.getItem(key),
      removeItem: async (key) => storage.removeItem(key),
      clear: async () => storage.clear(),
    });
    return store;
  }

  const token = (value: string) => ({ payload: {}, toString: () => value });

  it('sees the session Amplify stores at sign-in, and none once Amplify cleared it at sign-out', async () => {
    expect(session.hasStoredSession()).toBe(false);
    const store = amplifyTokenStore();
    await store.storeTokens({ accessToken: token('access'), idToken: token('id'), refreshToken: 'refresh', username: 'wendy@oddjobs.test', clockDrift: 0 });
    expect(session.hasStoredSession()).toBe(true);
    await store.clearTokens();
    expect(session.hasStoredSession()).toBe(false);
  });

  it("ignores another client's session", async () => {
    await amplifyTokenStore('client-2').storeTokens({ accessToken: token('access'), refreshToken: 'refresh', username: 'someone', clockDrift: 0 });
    expect(session.hasStoredSession()).toBe(false);
    // Signed out, the app answers without Amplify: no token, no user.
    expect(await session.currentIdToken()).toBeNull();
    expect(await session.currentUserId()).toBeNull();
  });
});
