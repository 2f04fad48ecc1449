import type { TicketSeverity } from './support-constants.ts';

/** The console dashboard's date range (issue 27): UTC days, both inclusive. */
export const DASHBOARD_DEFAULT_DAYS = 30;
export const DASHBOARD_MAX_DAYS = 366;

export interface DayCount {
  /** 'YYYY-MM-DD' (UTC). */
  day: string;
  count: number;
}

export interface ApiDayCalls {
  day: string;
  /** The API's alias, as the sandbox gateway records it. */
  api: string;
  calls: number;
  /** Calls answered with a status of 400 or more. */
  errors: number;
}

/** `GET /admin-api/dashboard` (administrators): `data.attributes`. */
export interface ConsoleDashboard {
  from: string;
  to: string;
  /** Accounts created per day, every day of the range (0 included). */
  signUps: DayCount[];
  /**
   * Organizations that created an application in the range or whose applications called the
   * sandbox in the range.
   */
  activeOrganizations: number;
  /** Every application now, by environment (PRODUCTION: gone live). */
  applications: { development: number; production: number };
  /** Sandbox calls and errors per API per day; only days and APIs with calls. */
  calls: ApiDayCalls[];
  /** Go-live requests waiting for a decision now; ages in seconds (null when none waits). */
  goLive: { waiting: number; oldestAgeSeconds: number | null; medianAgeSeconds: number | null };
  /** Open tickets now, per severity (every severity, 0 included). */
  openTickets: Record<TicketSeverity, number>;
}
