/**
 * Errors of the portal API that no screen words itself: they reach developers calling the API and
 * the web app's generic error display. Screen messages live in their feature's area.
 */
export const apiMessages = {
  notFound: 'Not found',
  categoryNotFound: 'Category not found',
  idMismatch: 'The id in the document does not match the URL.',
  jsonObjectRequired: 'Send a JSON object as the request body.',
  csrfMissing: 'X-CSRF-Token request header is missing',
  csrfInvalid: 'X-CSRF-Token request header is invalid',
  ownAccountOnly: 'You may only change your own account.',
  administratorsOnlyOutbox: 'Only provider administrators can read the outbox.',
  organizationFirst: 'Create the organization first, then upload its image and documents.',
  organizationParameter: 'Name the organization: ?organization={uuid}.',
  membershipBlocked: 'Your membership of this organization is blocked.',
  invalidText:
    '{{field}} contains a character that text cannot hold (a NUL byte or a broken Unicode sequence).',
  invalidPath:
    'The URL path contains a character that text cannot hold (a NUL byte or a broken Unicode sequence).',
  idOutOfRange: '{{field}} must be a whole number from 1 to {{max}}.',
  /** Checks of a field inside a document (the message follows the field's path). */
  httpsOrPath: 'must be an https URL or a path starting with /',
  documentId: 'must be a document id of letters, digits, _ and -',
  /** The site search's parameters (`/phpsdk/search`). */
  numberOutOfRange: '{{name}} must be a whole number from {{min}} to {{max}}.',
  searchQueryTooLong: 'q must be at most {{max}} characters long.',
  searchType: 'type must be ALL or one of {{types}}.',
  paginationBoolean: 'pagination must be true or false.',
} as const;
