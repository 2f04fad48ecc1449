import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '@portico/contracts/messages';

/**
 * The message catalogue of packages/contracts as i18next's English resource. Components call
 * `t('errors.notFoundTitle')`; a second language is one more resource of the same shape.
 */
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  // React escapes what it renders; double escaping would show &amp; in names.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export { i18next };
