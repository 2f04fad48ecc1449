import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import type {
  Database,
  FilesTable,
  MembershipsTable,
  OrganizationRolesTable,
  OrganizationsTable,
  UsersTable,
} from '../../db/schema.ts';
import { JsonApiQueryError } from '../../jsonapi/errors.ts';
import type { FilterGroup } from '../../jsonapi/filter.ts';
import { parseJsonApiQuery, type JsonApiQuery, type ParseQueryOptions } from '../../jsonapi/query.ts';
import {
  checkQuery,
  oneOf,
  values,
  type ResourceDescription,
  type ValueKind,
} from '../../jsonapi/resource.ts';

/**
 * The JSON:API collections of this module as resource descriptions of the shared layer
 * (src/jsonapi/): which filter and sort paths each list accepts, the SQL behind them, includes,
 * sparse fieldsets and paging. The routes build the base query (with their access conditions)
 * and hand it to `fetchCollection`.
 */

/** Paging of the organization list and the outbox: 20 by default, at most 50 (larger limits are lowered). */
export const ORGANIZATION_PAGE: ParseQueryOptions = { defaultLimit: 20, maxLimit: 50 };
/** Members and roles: 50 by default and at most. */
export const MEMBER_PAGE: ParseQueryOptions = { defaultLimit: 50, maxLimit: 50 };

/**
 * Text compared and sorted without regard to case: the path maps to `lower(column)` and the value
 * is lowered too, so `filter[label]=acme` finds "Acme" and `sort=label` puts "alpha" before "Bravo"
 * whatever the database collation. (JavaScript and PostgreSQL lower a few letters differently,
 * e.g. the dotted capital I; such titles still match with CONTAINS.)
 */
const caseInsensitiveText: ValueKind = {
  ...values.text,
  expected: 'text (compared without regard to case)',
  parse: (raw) => raw.toLowerCase(),
};

const FILE_FIELDS = [
  'drupal_internal__fid',
  'fid',
  'uuid',
  'filename',
  'fileName',
  'filemime',
  'filesize',
  'fileSize',
  'kind',
  'uri',
  'url',
  'created',
] as const;

// ---------------------------------------------------------------------------------------------
// group--organization: the caller's organizations (active memberships and pending invitations).

type OrganizationListDb = Database & { m: MembershipsTable; o: OrganizationsTable; cu: UsersTable };

/**
 * The caller's memberships (active or invited) joined to their organizations: their own rows, and
 * invitations to their proven address not linked to the account (`linkInvitations` links them when
 * the address is proven, and an invitation to a proven address is linked when it is sent; a row
 * left unlinked by a race between the two is still the caller's here). The list only reads (and can
 * be cached, decision 028): the answer depends on `memberships` and on the user's address, both
 * counted.
 */
export function myOrganizations(db: Db, userId: number, address: string | null) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .where((eb) =>
      eb.or([
        eb('m.user_id', '=', userId),
        ...(address
          ? [
              eb.and([
                eb('m.user_id', 'is', null),
                eb(eb.fn('lower', ['m.email']), '=', address.toLowerCase()),
                // As linkInvitations: a caller with a row of that organization keeps that row.
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('memberships as mine')
                      .select('mine.id')
                      .whereRef('mine.organization_id', '=', 'm.organization_id')
                      .where('mine.user_id', '=', userId),
                  ),
                ),
              ]),
            ]
          : []),
      ]),
    )
    .where('m.status', 'in', ['active', 'pending_invitation'])
    .selectAll('o')
    .select([
      'm.id as m_id',
      'm.uuid as m_uuid',
      'm.status as m_status',
      'm.roles as m_roles',
      'm.user_id as m_user_id',
      'm.email as m_email',
      'm.invited_by as m_invited_by',
      'm.resent_at as m_resent_at',
      'm.created_at as m_created_at',
      'm.changed_at as m_changed_at',
    ]);
}

export const organizationCollection: ResourceDescription<OrganizationListDb, 'm' | 'o'> = {
  type: 'group--organization',
  fields: {
    id: { sql: 'o.uuid', value: values.uuid, sort: false },
    drupal_internal__id: { sql: 'o.id', value: values.integer },
    label: { sql: { expression: () => sql`lower(${sql.ref('o.title')})` }, value: caseInsensitiveText },
    'field_body.value': { sql: 'o.description', value: values.text, sort: false },
    created: { sql: 'o.created_at', value: values.timestamp },
    changed: { sql: 'o.updated_at', value: values.timestamp },
    // The creator (a to-one relationship without a join: one scalar subquery).
    'uid.id': {
      sql: {
        expression: (eb) =>
          eb.selectFrom('users as cu').select('cu.uuid').whereRef('cu.id', '=', 'o.creator_id'),
      },
      value: values.uuid,
      sort: false,
    },
  },
  tiebreaker: 'o.id',
  defaultSort: [{ path: 'label', direction: 'ASC' }],
  includes: ['field_image', 'field_documents'],
  sparseFields: {
    'group--organization': [
      'drupal_internal__id',
      'label',
      'field_body',
      'created',
      'changed',
      'uid',
      'field_image',
      'field_documents',
    ],
    'file--file': FILE_FIELDS,
  },
};

// ---------------------------------------------------------------------------------------------
// group_content--organization-group_membership: the members and invitations of one organization.

type MemberListDb = Database & { m: MembershipsTable; o: OrganizationsTable; u: UsersTable };

/** Members and invitations of one organization, with the organization and the member's account joined. */
export function membersOf(db: Db, organizationId: number) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', '=', organizationId)
    .selectAll('m');
}

const MEMBER_STATUS = oneOf(['active', 'pending_invitation', 'blocked']);

export const memberCollection: ResourceDescription<MemberListDb, 'm' | 'o' | 'u'> = {
  type: 'group_content--organization-group_membership',
  fields: {
    // The organization: required, one UUID with =, at the top of the filter (see organizationOf).
    gid: { sql: 'o.uuid', value: values.uuid, operators: ['='], sort: false },
    'gid.id': { sql: 'o.uuid', value: values.uuid, operators: ['='], sort: false },
    id: { sql: 'm.uuid', value: values.uuid, sort: false },
    drupal_internal__id: { sql: 'm.id', value: values.integer },
    'entity_id.id': { sql: 'u.uuid', value: values.uuid, sort: false },
    email: { sql: 'm.email', value: values.text },
    status: { sql: 'm.status', value: MEMBER_STATUS },
    field_status: { sql: 'm.status', value: MEMBER_STATUS },
    created: { sql: 'm.created_at', value: values.timestamp },
    changed: { sql: 'm.changed_at', value: values.timestamp },
  },
  tiebreaker: 'm.id',
  defaultSort: [{ path: 'created', direction: 'ASC' }],
};

/**
 * The organization a membership list asks for: one `filter[gid]` (or `filter[gid.id]`) condition
 * with `=` at the top level of the filter. Call after checking the query (the value is a UUID).
 */
export function organizationOf(filter: FilterGroup): string {
  const conditions = filter.children.filter(
    (c) => c.kind === 'condition' && (c.path === 'gid' || c.path === 'gid.id') && c.operator === '=',
  );
  const only = conditions.length === 1 ? conditions[0] : undefined;
  if (only?.kind !== 'condition' || typeof only.value !== 'string')
    throw new JsonApiQueryError('filter[gid]', 'Filter the memberships by organization: filter[gid]={uuid}.');
  return only.value.toLowerCase();
}

// ---------------------------------------------------------------------------------------------
// group_role--group_role: the four organization roles.

type RoleListDb = Database & { r: OrganizationRolesTable };

export function allRoles(db: Db) {
  return db.selectFrom('organization_roles as r').selectAll('r');
}

export const roleCollection: ResourceDescription<RoleListDb, 'r'> = {
  type: 'group_role--group_role',
  fields: {
    // The role id, e.g. organization-admin (the web filters the four roles by it).
    drupal_internal__id: { sql: 'r.id', value: values.text },
    id: { sql: 'r.uuid', value: values.uuid, sort: false },
    label: { sql: 'r.label', value: values.text },
    weight: { sql: 'r.weight', value: values.integer },
  },
  tiebreaker: 'r.id',
  defaultSort: [{ path: 'weight', direction: 'ASC' }],
};

// ---------------------------------------------------------------------------------------------
// outbox--message: the administrator's outbox, newest first.

export function outboxMessages(db: Db) {
  return db.selectFrom('outbox').selectAll('outbox');
}

export const outboxCollection: ResourceDescription<Database, 'outbox'> = {
  type: 'outbox--message',
  fields: {
    id: { sql: 'outbox.id', value: values.integer },
    to: { sql: 'outbox.to_address', value: values.text },
    subject: { sql: 'outbox.subject', value: values.text },
    status: { sql: 'outbox.status', value: oneOf(['stored', 'sent', 'failed']) },
    created: { sql: 'outbox.created_at', value: values.timestamp },
  },
  tiebreaker: 'outbox.id',
  // Messages stored in the same instant: the later one first.
  defaultSort: [
    { path: 'created', direction: 'DESC' },
    { path: 'id', direction: 'DESC' },
  ],
};

// ---------------------------------------------------------------------------------------------
// Single resources and uploads.

/**
 * The query of a single organization: `include` and `fields` apply; filter, sort and page are
 * checked against the collection (an unknown path is a 400) but have no effect, as in Drupal.
 */
export function singleOrganizationQuery(rawQuery: unknown): JsonApiQuery {
  const query = parseJsonApiQuery(rawQuery, ORGANIZATION_PAGE);
  checkQuery(organizationCollection, query);
  return query;
}

const uploadTarget: ResourceDescription<Database & { f: FilesTable }, 'f'> = {
  type: 'file--file',
  fields: {},
  tiebreaker: 'f.id',
};

/**
 * The organization of a raw upload, `?organization={uuid}` (Drupal's form); undefined when not
 * given. Other parameters (include, filter, ...) are a 400 naming the parameter.
 */
export function uploadOrganizationParameter(rawQuery: unknown): string | undefined {
  const query = parseJsonApiQuery(rawQuery, {
    defaultLimit: 1,
    maxLimit: 1,
    extraParameters: ['organization'],
  });
  checkQuery(uploadTarget, query);
  const value = query.extra.organization;
  if (Array.isArray(value))
    throw new JsonApiQueryError('organization', 'The query parameter organization is given more than once.');
  return value || undefined;
}
