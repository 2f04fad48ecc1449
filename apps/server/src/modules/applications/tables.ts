import type { ColumnType, Generated, JSONColumnType, Selectable } from 'kysely';
import type { Db } from '../../db/client.ts';
import type { CatalogTables } from '../catalog/service.ts';

/** Kysely types of migration 0050-applications; the module reads the catalog's api_products too. */

type Created = ColumnType<Date, Date | string | undefined, never>;
type Changed = ColumnType<Date, Date | string | undefined, Date | string>;

export type Environment = 'DEVELOPMENT' | 'PRODUCTION';
export type GoLiveState = 'pending' | 'approved' | 'rejected';

export interface ApplicationsTable {
  /** The numeric nid. */
  id: Generated<number>;
  uuid: Generated<string>;
  organization_id: number;
  title: string;
  /** Sanitized HTML. */
  description: Generated<string>;
  grant_types: string[];
  redirect_uris: Generated<string[]>;
  post_logout_redirect_uris: Generated<string[]>;
  status: Generated<Environment>;
  golive_status: GoLiveState | null;
  golive_reason: string | null;
  development_secret_deleted: Generated<boolean>;
  production_secret_deleted: Generated<boolean>;
  created_by: number | null;
  /** The application whose software statement registered this one (migration 0308), or null. */
  registered_from: Generated<string | null>;
  created: Created;
  changed: Changed;
  /** The organization certificate whose PSD2 roles limit the application (migration 0304). */
  psd2_certificate_id: Generated<number | null>;
}

export interface SubscriptionsTable {
  application_id: number;
  product_id: number;
  created: Created;
}

export interface GoLiveRequestsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  application_id: number | null;
  organization_id: number;
  application_title: string;
  title: string;
  developer_type: 'Personal' | 'Company';
  first_name: string;
  last_name: string;
  company_name: string;
  address: string;
  email: string;
  site_url: string;
  use_cases: string;
  status: Generated<GoLiveState>;
  reason: string | null;
  decided_by: number | null;
  decided_at: Date | string | null;
  created_by: number | null;
  created: Created;
}

/** A notice of the API provider about a change affecting an application (migration 0275). */
export interface ApplicationNoticesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  application_id: number;
  draft_id: number | null;
  api_alias: string;
  api_title: string;
  text: string;
  endpoints: JSONColumnType<string[], string, string>;
  created_by: number | null;
  created: Created;
}

// A type literal, not an interface: withTables wants an index-compatible record.
export type ApplicationTables = {
  applications: ApplicationsTable;
  subscriptions: SubscriptionsTable;
  application_notices: ApplicationNoticesTable;
  go_live_requests: GoLiveRequestsTable;
} & CatalogTables;

/**
 * The module's view of a database handle or a transaction (`Db` accepts both: a transaction's
 * `withTables` stays in the transaction). Services take a `Db` and call this.
 */
export function appDb(db: Db) {
  return db.withTables<ApplicationTables>();
}
export type AppDb = ReturnType<typeof appDb>;

export type ApplicationRow = Selectable<ApplicationsTable>;
export type GoLiveRequestRow = Selectable<GoLiveRequestsTable>;
export type ProductRow = Selectable<CatalogTables['api_products']>;
