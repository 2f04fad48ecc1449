/**
 * The provider console's Quick Start stories (issue 27): the guided tours, edited in the browser.
 * Part of messages/console.ts as `quickstart`. The server's words (refusals, problems); the
 * console's editor adds its own.
 */
export const consoleQuickstartMessages = {
  forbidden: 'Only content editors and administrators may edit Quick Start stories.',
  notFound: 'There is no such Quick Start story.',
  errors: {
    stale: 'This story was saved by someone else since you opened it (version {{version}}).',
    stepsInvalid: 'Some steps are not valid: {{problems}}',
  },
} as const;
