/**
 * The headers of every API request (lib/api/client.ts, and the early entry's reads, which must
 * be the same requests): JSON in and out, the bearer token when signed in.
 */
export function apiRequestHeaders(idToken: string | null, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (idToken) headers.authorization = `Bearer ${idToken}`;
  if (withBody) headers['content-type'] = 'application/json';
  return headers;
}
