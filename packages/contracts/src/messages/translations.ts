/**
 * Content shown in another language than the page's (issue 30, decision 063): the note above an
 * item whose translation does not exist yet, shown in the default language instead; and the
 * console's translations panel.
 */
export const translationsMessages = {
  fallbackNote: 'This content is not yet available in your language. It is shown in English.',
  /** Beside a search result shown in English because it has no translation (decision 065). */
  fallbackBadge: 'In English',
  console: {
    heading: 'Translations',
    hint: 'The texts in other languages. Where a language has none, readers see the English text with a note.',
    documentHint:
      'Each English text of the live document beside a field for its translation. A text left empty is shown in English.',
    language: '{{language}}',
    open: 'Translate into {{language}}',
    save: 'Save translation',
    saved: 'The {{language}} translation is saved.',
    remove: 'Remove translation',
    removed: 'The {{language}} translation is removed.',
  },
};
