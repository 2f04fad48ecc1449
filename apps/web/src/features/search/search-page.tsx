import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  NativeSelect,
  Pagination,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  SEARCH_HIGHLIGHT_MIN_LENGTH,
  SEARCH_PAGE_SIZE,
  SEARCH_SNIPPET_LENGTH,
  SEARCH_TYPES,
  type SearchType,
} from '@portico/contracts/constants';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { langOf } from '../../components/content/translation';
import { PageTitle } from '../../components/ui/page-title';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { cutTitleWords, formatDate, formatNumber, htmlToText } from '../../lib/text';
import { useSearch, type SearchResult } from './api';
import { highlightTerms, resultLink, splitHighlights } from './result-link';
import classes from './search.module.css';

/** Spec B 9: the search box takes the focus by itself on screens narrower than this. */
const AUTOFOCUS_BELOW_PX = 1199;

const TYPE_OPTIONS = ['ALL', ...SEARCH_TYPES] as const;
type TypeOption = (typeof TYPE_OPTIONS)[number];

function typeOf(value: string | null): TypeOption {
  return (TYPE_OPTIONS as readonly string[]).includes(value ?? '') ? (value as TypeOption) : 'ALL';
}

/**
 * /search (spec B 2.6): search bar, 'Search in' dropdown, result cards, pager of 10. The query, the
 * type and the page live in the URL, so a search can be shared, reloaded and navigated back to.
 */
export default function SearchPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const query = params.get('q') ?? '';
  const type = typeOf(params.get('type'));
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  // What the box shows: what the visitor typed for the current query, else the query itself (so
  // the box follows the URL: back and forward buttons, the header's search link).
  const [typed, setTyped] = useState({ query, text: query });
  const draft = typed.query === query ? typed.text : query;
  const setDraft = (text: string) => setTyped({ query, text });
  const input = useRef<HTMLInputElement>(null);
  const results = useSearch(query, type, page);

  useEffect(() => {
    if (window.innerWidth < AUTOFOCUS_BELOW_PX) input.current?.focus();
  }, []);

  const update = (changes: { q?: string; type?: TypeOption; page?: number }) => {
    const next = new URLSearchParams(params);
    const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
    if (changes.q !== undefined) set('q', changes.q.trim());
    if (changes.type !== undefined) set('type', changes.type === 'ALL' ? undefined : changes.type);
    // A new query or a new type starts again at the first page (spec B 4).
    const nextPage = changes.page ?? 0;
    set('page', nextPage > 0 ? String(nextPage) : undefined);
    setParams(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ q: draft });
  };

  const count = results.data?.meta.count ?? 0;
  const countExact = results.data?.meta.countExact ?? true;
  // Up to the last result the server serves: past its SEARCH_RESULTS_MAX it serves none.
  const pages = Math.ceil(count / SEARCH_PAGE_SIZE);
  const terms = highlightTerms(query, SEARCH_HIGHLIGHT_MIN_LENGTH);

  return (
    <Container size="lg" py="xl">
      <PageTitle>{t('search.title')}</PageTitle>
      <form role="search" onSubmit={submit} aria-label={t('search.title')}>
        <Group align="flex-end" wrap="wrap" gap="sm">
          <TextInput
            ref={input}
            className={classes.query}
            type="search"
            label={t('search.queryLabel')}
            placeholder={t('search.placeholder')}
            value={draft}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              // Clearing the box clears the results too.
              if (e.currentTarget.value === '' && query !== '') update({ q: '' });
            }}
          />
          <NativeSelect
            label={t('search.searchIn')}
            value={type}
            data={TYPE_OPTIONS.map((value) => ({ value, label: t(`search.types.${value}`) }))}
            onChange={(e) => update({ type: typeOf(e.currentTarget.value) })}
          />
          <Button type="submit">{t('search.submit')}</Button>
        </Group>
      </form>

      <Stack mt="xl" gap="md" aria-live="polite">
        {query.trim() === '' ? (
          <Text c="dimmed">{t('search.emptyQuery')}</Text>
        ) : results.isPending ? (
          <Loading />
        ) : results.isError ? (
          <Alert color="red" role="alert">
            {messageOf(results.error, t('search.failed'))}
          </Alert>
        ) : count === 0 ? (
          <div>
            <Title order={2} size="h4">
              {t('search.noResultsTitle')}
            </Title>
            <Text mt="xs">{t('search.noResultsHint')}</Text>
          </div>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {!countExact
                ? t('search.resultCountAtLeast', { count: formatNumber(count), query })
                : count === 1
                  ? t('search.oneResult', { query })
                  : t('search.resultCount', { count, query })}
            </Text>
            <ol className={classes.results}>
              {results.data.data.map((result) => (
                <li key={`${result.type}:${result.uuid}`}>
                  <ResultCard result={result} terms={terms} />
                </li>
              ))}
            </ol>
            {pages > 1 && (
              <nav aria-label={t('search.pagination')}>
                <Pagination
                  total={pages}
                  value={page + 1}
                  onChange={(p) => {
                    update({ q: query, type, page: p - 1 });
                    window.scrollTo({ top: 0 });
                  }}
                  getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                />
              </nav>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

function Highlighted({ text, terms }: { text: string; terms: readonly string[] }) {
  return (
    <>
      {splitHighlights(text, terms).map((part, i) =>
        part.hit ? <mark key={i}>{part.text}</mark> : part.text,
      )}
    </>
  );
}

/** Spec B 2.6: title, description snippet (500 characters, tags stripped, 3 lines), created date. */
function ResultCard({ result, terms }: { result: SearchResult; terms: readonly string[] }) {
  const { t } = useTranslation();
  const snippet = htmlToText(result.description).slice(0, SEARCH_SNIPPET_LENGTH);
  // A result without a translation in the page's language: its text is the default language's.
  const lang = langOf(result.translation);
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Anchor
          component={Link}
          to={resultLink(result)}
          fw={600}
          size="lg"
          className={classes.title}
          lang={lang}
        >
          <Highlighted text={cutTitleWords(result.title)} terms={terms} />
        </Anchor>
        <Group gap={6} wrap="nowrap">
          {result.translation?.fallback && (
            <Badge color="gray" variant="light" data-testid="result-fallback">
              {t('translations.fallbackBadge')}
            </Badge>
          )}
          {result.deprecated && (
            <Badge color="orange" variant="light">
              {t('search.deprecated')}
            </Badge>
          )}
          <Badge variant="outline">{t(`search.types.${result.type as SearchType}`)}</Badge>
        </Group>
      </Group>
      {snippet && (
        <Text className={classes.snippet} mt="xs" lang={lang}>
          <Highlighted text={snippet} terms={terms} />
        </Text>
      )}
      <Text size="sm" c="dimmed" mt="xs">
        <time dateTime={result.created}>{formatDate(result.created)}</time>
      </Text>
    </Card>
  );
}
