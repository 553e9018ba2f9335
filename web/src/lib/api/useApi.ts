import { useMemo } from 'react';
import { createApiClient, type ApiClient } from './client';
import { currentIdToken } from '../auth/session';
import { useConfig } from '../useConfig';

/** The HTTP API client, authenticated as the signed-in user when there is one. */
export function useApi(): ApiClient {
  const { apiUrl } = useConfig();
  return useMemo(() => createApiClient(apiUrl, currentIdToken), [apiUrl]);
}
