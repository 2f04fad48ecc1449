/**
 * Content shown in another language than the page's (issue 30, decision 063): the note above an
 * item whose translation does not exist yet, shown in the default language instead.
 */
export const translationsMessages = {
  fallbackNote: 'This content is not yet available in your language. It is shown in English.',
};
