import type { ProviderRole } from './provider-roles.ts';

/** The console's user pages (issue 27): what /admin-api/users answers. */

export const USERS_PAGE_DEFAULT = 25;
export const USERS_PAGE_MAX = 100;
export const USER_SORTS = ['newest', 'name'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** A type literal (not an interface): the server's JSON:API documents want index-compatible records. */
export type ConsoleUserAttributes = {
  name: string;
  email: string;
  /** Titles of the organizations the account is an active member of. */
  organizations: string[];
  lastSignIn: string | null;
  created: string;
  blocked: boolean;
  blockedAt: string | null;
  providerRoles: ProviderRole[];
};

/** A JSON:API resource of type 'console--user' (id: the account's uuid). */
export interface ConsoleUserResource {
  type: 'console--user';
  id: string;
  attributes: ConsoleUserAttributes;
}

export interface ConsoleUserList {
  data: ConsoleUserResource[];
  meta: { count: number };
  links: { self: string; next?: string; prev?: string };
}

export interface ConsoleUserDetail {
  data: ConsoleUserResource & {
    attributes: ConsoleUserAttributes & {
      memberships: { uuid: string; title: string; roles: string[] }[];
      applications: {
        uuid: string;
        title: string;
        status: 'DEVELOPMENT' | 'PRODUCTION';
        organizationUuid: string;
        organizationTitle: string;
        createdByUser: boolean;
      }[];
      tickets: { id: number; uuid: string; title: string; status: string; created: string }[];
    };
  };
}
