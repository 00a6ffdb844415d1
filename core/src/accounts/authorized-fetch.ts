// A request to the platform on the user's behalf: bearer token attached, and one renewal and retry
// when the platform refuses the token (HTTP 401).
import type { AccountService } from './account-service.js';

export async function authorizedFetch(account: AccountService, url: string, init: RequestInit = {}): Promise<Response> {
  const send = (token: string) =>
    fetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` } });
  const token = await account.accessToken();
  const response = await send(token);
  if (response.status !== 401) return response;
  await response.body?.cancel();
  return send(await account.renewAfterRejection(token));
}
