import { useMemo } from 'react';
import { createApiClient, type ApiClient } from './client';
import { currentIdToken } from '../auth/session';
import { useConfig } from '../useConfig';

/** The app's HTTP API client at `apiUrl`, authenticated as the signed-in user when there is one. */
export const createAppApiClient = (apiUrl: string): ApiClient => createApiClient(apiUrl, currentIdToken);

/** The HTTP API client, authenticated as the signed-in user when there is one. */
export function useApi(): ApiClient {
  const { apiUrl } = useConfig();
  return useMemo(() => createAppApiClient(apiUrl), [apiUrl]);
}
