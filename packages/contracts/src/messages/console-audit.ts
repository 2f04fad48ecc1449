import { auditActionLabels } from './audit-actions.ts';

/**
 * The console's audit log (`/admin/audit`, `GET /admin-api/audit`, `GET /admin-api/audit.csv`):
 * the page, its filters and the server's refusals.
 */
export const consoleAuditMessages = {
  providersOnly: "The audit log is for the provider's team.",
  title: 'Audit log',
  intro:
    'Every change made in the console and every security-relevant action of developers: who, when, what, before and after, and from which address. Entries cannot be edited or deleted.',
  filters: 'Filter the audit log',
  action: 'Action',
  anyAction: 'Any action',
  actor: 'Who (e-mail contains)',
  targetType: 'Target type',
  anyTargetType: 'Any target type',
  from: 'From (UTC day)',
  to: 'To (UTC day)',
  apply: 'Apply filters',
  reset: 'Clear filters',
  exportCsv: 'Export CSV',
  empty: 'No entries match these filters.',
  count: 'Entries: {{count}}',
  columnWhen: 'When',
  columnWho: 'Who',
  columnAction: 'Action',
  columnTarget: 'Target',
  columnOrganization: 'Organization',
  columnAddress: 'Address',
  system: 'System',
  anonymous: 'Not signed in',
  detailsColumn: 'Details',
  details: 'Show before and after of entry {{number}}',
  hideDetails: 'Hide before and after of entry {{number}}',
  before: 'Before',
  after: 'After',
  nothing: '(nothing)',
  previousPage: 'Previous',
  nextPage: 'Next',
  pageOf: 'Page {{page}} of {{pages}}',
  pages: 'Audit log pages',
  invalidDate:
    '{{parameter}} must be a date (YYYY-MM-DD) or a timestamp with a time zone (ISO 8601), not "{{value}}".',
  fromAfterTo: 'filter[from] must not be later than filter[to].',
  invalidAction: 'filter[action] must be an action name such as membership.invited, not "{{value}}".',
  invalidTargetType: 'filter[target_type] must be a target type such as application, not "{{value}}".',
  invalidOrganization: 'filter[organization] must be the UUID of an organization, not "{{value}}".',
  actorTooLong: 'filter[actor] must be 254 characters or less.',
  unknownParameter:
    'The query parameter {{parameter}} is not supported here; use filter[action], filter[actor], filter[target_type], filter[organization], filter[from], filter[to], page[limit] and page[offset].',
  repeated: 'The query parameter {{parameter}} is given more than once.',
  actions: auditActionLabels,
} as const;
