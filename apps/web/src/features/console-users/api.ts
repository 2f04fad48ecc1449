import type { ConsoleUserDetail, ConsoleUserList, UserSort } from '@portico/contracts/console-users';
import type { ProviderRole } from '@portico/contracts/provider-roles';
import { apiRequest } from '../../lib/api-client';

/** Calls of the console's user pages (modules/console-users on the server). */
export const userKeys = {
  all: ['console-users'] as const,
  list: (q: string, sort: UserSort, offset: number) => ['console-users', 'list', q, sort, offset] as const,
  one: (uuid: string) => ['console-users', 'one', uuid] as const,
};

export const PAGE_SIZE = 20;

export function fetchUsers(q: string, sort: UserSort, offset: number): Promise<ConsoleUserList> {
  return apiRequest<ConsoleUserList>('/admin-api/users', {
    query: {
      'filter[q]': q || undefined,
      sort: sort === 'name' ? 'name' : undefined,
      'page[limit]': PAGE_SIZE,
      'page[offset]': offset || undefined,
    },
  });
}

export async function fetchUser(uuid: string): Promise<ConsoleUserDetail['data']> {
  return (await apiRequest<ConsoleUserDetail>(`/admin-api/users/${encodeURIComponent(uuid)}`)).data;
}

export async function setBlocked(uuid: string, blocked: boolean): Promise<ConsoleUserDetail['data']> {
  const action = blocked ? 'block' : 'unblock';
  return (
    await apiRequest<ConsoleUserDetail>(`/admin-api/users/${encodeURIComponent(uuid)}/${action}`, {
      method: 'POST',
      format: 'json',
    })
  ).data;
}

export async function saveRoles(uuid: string, roles: ProviderRole[]): Promise<ConsoleUserDetail['data']> {
  return (
    await apiRequest<ConsoleUserDetail>(`/admin-api/users/${encodeURIComponent(uuid)}/roles`, {
      method: 'PUT',
      format: 'json',
      body: { roles },
    })
  ).data;
}
