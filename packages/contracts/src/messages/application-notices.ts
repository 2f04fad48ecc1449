/** Notices the API provider sent about changes to APIs an application calls (issue 27). */
export const applicationNoticesMessages = {
  title: 'Notices from the API provider',
  from: 'About {{api}}, {{date}}',
  endpoints: 'Affected operations:',
} as const;
