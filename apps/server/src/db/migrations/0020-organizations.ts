import { sql, type Kysely } from 'kysely';

/**
 * Organizations (spec A 3 'Organization', 'Membership', 'Role'): the organizations, their four
 * roles, memberships (active members and pending invitations, by e-mail until the invitee has an
 * account) and uploaded files (organization images and documents).
 */
export const ORGANIZATION_ROLE_SEED = [
  {
    id: 'organization-admin',
    label: 'Organization Owner',
    description: 'Access to all organization credentials.',
    weight: 0,
  },
  {
    id: 'organization-developer',
    label: 'Developer',
    description: 'Create and edit applications, upload technical documents.',
    weight: 1,
  },
  {
    id: 'organization-financial',
    label: 'Financial',
    description: 'View applications and consumption.',
    weight: 2,
  },
  {
    id: 'organization-le',
    label: 'Legal',
    description: 'View applications and upload technical documents.',
    weight: 3,
  },
] as const;

// The role permissions as they were when this migration ran. modules/organizations/authz.ts decides
// with the same table, and a test keeps the two equal: a later change of permissions ships with a
// migration that updates this column.
const SEED_PERMISSIONS: Record<string, string[]> = {
  'organization-admin': [
    'view group',
    'edit group',
    'delete group',
    'administer members',
    'edit member roles',
    'view members',
    'upload documents',
    'view group_node:application entity',
    'create group_node:application content',
    'create group_node:application entity',
    'update any group_node:application entity',
    'delete any group_node:application content',
    'delete any group_node:application entity',
    'view consumption',
  ],
  'organization-developer': [
    'view group',
    'view members',
    'upload documents',
    'view group_node:application entity',
    'create group_node:application content',
    'create group_node:application entity',
    'update any group_node:application entity',
    'view consumption',
  ],
  'organization-financial': [
    'view group',
    'view members',
    'view group_node:application entity',
    'view consumption',
  ],
  'organization-le': ['view group', 'view members', 'upload documents', 'view group_node:application entity'],
};

// Migrations take Kysely<unknown>: they must not depend on today's schema types.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // The creator cannot be removed from the organization; deleting the account keeps the group.
    .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('organizations_creator').on('organizations').column('creator_id').execute();
  await sql`create index organizations_title_lower on organizations (lower(title))`.execute(db);
  await db.schema.createIndex('organizations_created').on('organizations').column('created_at').execute();

  await db.schema
    .createTable('organization_roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('permissions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const role of ORGANIZATION_ROLE_SEED) {
    await sql`insert into organization_roles (id, label, description, permissions, weight)
      values (${role.id}, ${role.label}, ${role.description}, ${JSON.stringify(SEED_PERMISSIONS[role.id] ?? [])}::jsonb, ${role.weight})`.execute(
      db,
    );
  }

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('organization_id', 'integer', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    // Null for an invitation to an address that has no account yet; set when that person signs in.
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('active', 'pending_invitation', 'blocked')`),
    )
    // Role ids of organization_roles; checked by the application (a text[] keeps reads one row).
    .addColumn('roles', sql`text[]`, (c) => c.notNull().check(sql`cardinality(roles) > 0`))
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One membership per address and organization: concurrent invitations of one address make one row.
  await sql`create unique index memberships_org_email on memberships (organization_id, lower(email))`.execute(
    db,
  );
  await sql`create unique index memberships_org_user on memberships (organization_id, user_id) where user_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
  await sql`create index memberships_email_lower on memberships (lower(email))`.execute(db);
  await db.schema.createIndex('memberships_invited_by').on('memberships').column('invited_by').execute();

  await db.schema
    .createTable('files')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('organization_id', 'integer', (c) =>
      c.notNull().references('organizations.id').onDelete('cascade'),
    )
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('mime', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('image', 'document')`))
    .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('files_organization')
    .on('files')
    .columns(['organization_id', 'kind'])
    .execute();
  await db.schema.createIndex('files_uploaded_by').on('files').column('uploaded_by').execute();

  // The organization's image is one of its files.
  await db.schema
    .alterTable('organizations')
    .addColumn('image_file_id', 'integer', (c) => c.references('files.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('organizations_image').on('organizations').column('image_file_id').execute();
}
