import { Anchor, Group } from '@mantine/core';
import { LOCALES, LOCALE_NAMES } from '@portico/contracts/locales';
import { useLocation } from 'react-router';
import { localeBasename } from '@portico/contracts/locale-path';
import { useTranslation } from '../../lib/i18n';
import { pageIn, switchLocale } from '../../lib/locale-choice';

/**
 * The header's language switcher (issue 30): one link per language, each named in its own
 * language, to the same page in it. Plain links keep it keyboard usable and small (the first
 * page's budget); a click also keeps the choice in the cookie and, signed in, on the account.
 */
export function LanguageSwitcher() {
  const { t, locale } = useTranslation();
  // The router's location is below the language's prefix: the page's full address has it back.
  const { pathname, search, hash } = useLocation();
  const here = { pathname: localeBasename(locale) + pathname, search, hash };
  return (
    <Group component="nav" aria-label={t('language.label')} gap={8} wrap="nowrap">
      {LOCALES.map((lng) => (
        <Anchor
          key={lng}
          href={pageIn(lng, here)}
          lang={lng}
          hrefLang={lng}
          size="sm"
          fw={lng === locale ? 700 : undefined}
          aria-current={lng === locale ? 'true' : undefined}
          onClick={(event) => {
            event.preventDefault();
            if (lng !== locale) void switchLocale(lng);
          }}
        >
          {LOCALE_NAMES[lng]}
        </Anchor>
      ))}
    </Group>
  );
}
