import { ASSIGNABLE_ROLES, type ProviderRole } from '@portico/contracts/provider-roles';

type AssignableRole = Exclude<ProviderRole, 'administrator'>;

/** One account of the provider's team the browser tests sign in as. */
export interface TeamMember {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  role: AssignableRole;
}

const PASSWORD = 'ConsoleTeam#2026';
const NAMES: Record<AssignableRole, [string, string]> = {
  api_manager: ['Ari', 'Manager'],
  content_editor: ['Cleo', 'Editor'],
  support_agent: ['Sol', 'Agent'],
  go_live_reviewer: ['Rey', 'Reviewer'],
};

/**
 * The provider's team of the browser tests: one account per provider role besides the
 * administrator (the demo administrator is that one), with no other role. They are written into
 * the fresh database before the portal starts (seedProviderTeam), so that the console's tests do
 * not depend on the demo content naming such accounts nor on a console page that grants roles.
 */
export const PROVIDER_TEAM: Record<AssignableRole, TeamMember> = Object.fromEntries(
  ASSIGNABLE_ROLES.map((role) => {
    const [firstName, lastName] = NAMES[role];
    return [role, { email: `e2e.${role}@portico.test`, password: PASSWORD, firstName, lastName, role }];
  }),
) as Record<AssignableRole, TeamMember>;

/**
 * Creates the team's accounts (address verified) with their roles in the portal's embedded
 * database in `dataDir`, migrating it first; run before the portal starts, which then finds the
 * database up to date. The demo content's users import skips addresses that exist.
 */
export async function seedProviderTeam(dataDir: string): Promise<void> {
  const { openDatabase } = await import('../../apps/server/src/db/client.ts');
  const { migrateToLatest } = await import('../../apps/server/src/db/migrate.ts');
  const { hashPassword } = await import('../../apps/server/src/lib/passwords.ts');
  const { displayName, usersRepo } = await import('../../apps/server/src/modules/identity/users-repo.ts');
  const handle = await openDatabase({ dataDir });
  try {
    await migrateToLatest(handle.db);
    const passwordHash = await hashPassword(PASSWORD);
    for (const m of Object.values(PROVIDER_TEAM)) {
      const user = await usersRepo(handle.db).create({
        email: m.email,
        name: displayName(m.firstName, m.lastName, m.email),
        firstName: m.firstName,
        lastName: m.lastName,
        passwordHash,
        emailVerified: true,
      });
      if (!user) throw new Error(`provider team: ${m.email} exists already`);
      await handle.db.insertInto('provider_roles').values({ user_id: user.id, role: m.role }).execute();
    }
  } finally {
    await handle.close();
  }
}
