/**
 * The provider's roles in the console (issue 27). An administrator may do everything; the other
 * roles each cover one part of the console. Administrators are `users.is_admin`; the other roles
 * are rows of `provider_roles` (migration 0270).
 */
export const PROVIDER_ROLES = [
  'administrator',
  'api_manager',
  'content_editor',
  'support_agent',
  'go_live_reviewer',
] as const;

export type ProviderRole = (typeof PROVIDER_ROLES)[number];

/** The roles stored in `provider_roles` (the administrator is `users.is_admin`). */
export const ASSIGNABLE_ROLES = PROVIDER_ROLES.filter(
  (r): r is Exclude<ProviderRole, 'administrator'> => r !== 'administrator',
);

export const PROVIDER_ROLE_LABELS: Record<ProviderRole, string> = {
  administrator: 'Administrator',
  api_manager: 'API manager',
  content_editor: 'Content editor',
  support_agent: 'Support agent',
  go_live_reviewer: 'Go-live reviewer',
};

export function isProviderRole(value: unknown): value is ProviderRole {
  return typeof value === 'string' && (PROVIDER_ROLES as readonly string[]).includes(value);
}

/** Whether someone with `roles` may do what `needed` allows (an administrator may do anything). */
export function hasProviderRole(
  roles: readonly string[],
  needed: ProviderRole | readonly ProviderRole[],
): boolean {
  if (roles.includes('administrator')) return true;
  const list: readonly ProviderRole[] = typeof needed === 'string' ? [needed] : needed;
  return list.some((r) => roles.includes(r));
}
