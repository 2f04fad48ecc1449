import { Alert, Badge, Box, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { sandboxCredential, type OperationIndex, type OperationSummary } from '@portico/contracts/catalog';
import { deepLinkedOperation, operationAddress } from '@portico/contracts/documentation-data';
import { IconLink, IconLock, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/ui/loading';
import { messageOf } from '../../../lib/api-client';
import {
  prefetchOperation,
  publishedSource,
  useSourceIndex,
  type DocumentationSource,
} from '../api-documentation';
import { ReferenceSource, useReferenceSource } from './reference-source';
import { OperationDetails } from './operation-details';
import { buildRows, countLabel, countRows, type ReferenceRow } from './operation-rows';
import { Markdown } from '../../../components/ui/markdown';
import { langOf } from '../../../components/content/translation';
import { TranslationNote } from '../../../components/content/translation-note';
import classes from './reference.module.css';
import { TryoutHistoryButton } from '../../tryout/history-button';
import { TourSlot } from './tour-slot';

/**
 * How many of the first operations shown get their details fetched once the page is idle: the ones
 * a visitor most likely opens first, without a request per row of a long screen.
 */
const PREFETCH_FIRST_SHOWN = 4;

/** Method badge backgrounds dark enough for their small white text (at least 4.5:1). */
const METHOD_COLORS: Record<string, string> = {
  get: '#237a35',
  post: 'var(--mantine-color-blue-8)',
  put: '#b8440b',
  patch: 'var(--mantine-color-teal-9)',
  delete: 'var(--mantine-color-red-9)',
};

/**
 * The interactive reference (spec B 2.12), rendered from the server's operation index: operations
 * grouped by tag in a virtualized list (a spec with thousands of operations renders a screenful),
 * details loaded when an operation is expanded, a search box, and deep links '#operation/<key>'
 * that open and scroll to an operation.
 */
export function ApiReference({ alias, source }: { alias: string; source?: DocumentationSource }) {
  const shown = source ?? publishedSource(alias);
  return (
    <ReferenceSource.Provider value={shown}>
      <SourcedReference source={shown} />
    </ReferenceSource.Provider>
  );
}

function SourcedReference({ source }: { source: DocumentationSource }) {
  const { t } = useTranslation();
  const index = useSourceIndex(source);
  if (index.isPending) return <Loading />;
  if (index.isError) {
    // Spec B 8: the documentation page shows the error; 'Swagger not found' when there is no spec.
    return (
      <Alert color="red" role="alert" data-testid="reference-error">
        {messageOf(index.error, t('catalog.swaggerNotFound'))}
      </Alert>
    );
  }
  return <Reference index={index.data} />;
}

function Reference({ index }: { index: OperationIndex }) {
  const { t } = useTranslation();
  const source = useReferenceSource();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const rows = useMemo(() => buildRows(index, deferredSearch), [index, deferredSearch]);
  // A deep link's operation (or one opened on the server's first screen) is open from the first
  // render: the app takes the screen over with it open, its details already fetched (decision 043).
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => {
    const key = deepLinkedOperation(window.location.search, window.location.hash);
    const row = key ? rows.find((r) => r.kind === 'op' && r.op.key === key) : undefined;
    return new Set(row ? [row.id] : []);
  });
  const [language, setLanguage] = useState<string | null>(null);

  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The list sits below the page header, whose height changes as its parts load.
  useLayoutEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const update = () => setScrollMargin(Math.round(el.getBoundingClientRect().top + window.scrollY));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => (rows[i]?.kind === 'tag' ? 72 : expanded.has(rows[i]?.id ?? '') ? 900 : 46),
    overscan: 10,
    scrollMargin,
    getItemKey: (i) => rows[i]?.id ?? i,
  });

  const toggle = useCallback((row: ReferenceRow & { kind: 'op' }) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(row.id)) next.delete(row.id);
      else {
        next.add(row.id);
        // The address names the open operation (without a history entry or a jump).
        window.history.replaceState(window.history.state, '', addressOf(row.op.key));
      }
      return next;
    });
  }, []);

  // Deep links: on load and whenever the hash names an operation, open it and scroll to it.
  const openFromHash = useCallback(() => {
    const key = deepLinkedOperation(window.location.search, window.location.hash);
    if (!key) return;
    let at = rows.findIndex((r) => r.kind === 'op' && r.op.key === key);
    if (at < 0 && deferredSearch) {
      // The search hides it: clear the search, the next render will find it.
      setSearch('');
      return;
    }
    if (at < 0) return;
    const row = rows[at]!;
    setExpanded((prev) => (prev.has(row.id) ? prev : new Set(prev).add(row.id)));
    at = Math.max(0, at);
    requestAnimationFrame(() => virtualizer.scrollToIndex(at, { align: 'start' }));
  }, [rows, deferredSearch, virtualizer]);

  const openedOnce = useRef(false);
  useEffect(() => {
    // Not before the operations are listed: a page whose chunk and answers arrive quickly may lay
    // the reference out before the index is in, and the deep link would be spent on an empty list.
    if (!openedOnce.current && scrollMargin > 0 && rows.length > 0) {
      openedOnce.current = true;
      openFromHash();
    }
  }, [openFromHash, scrollMargin, rows.length]);
  // The first operations of the list: their details are fetched while the visitor reads, so that
  // opening one shows it at once. A deep link has its own operation asked for already.
  const queryClient = useQueryClient();
  const prefetchedOnce = useRef(false);
  useEffect(() => {
    if (prefetchedOnce.current || scrollMargin <= 0 || rows.length === 0) return;
    prefetchedOnce.current = true;
    if (deepLinkedOperation(window.location.search, window.location.hash)) return;
    const prefetch = () => {
      // The first ones not above the screen (the list may start below it, under the page's header).
      virtualizer
        .getVirtualItems()
        .filter((item) => item.end > window.scrollY)
        .flatMap((item) => {
          const row = rows[item.index];
          return row?.kind === 'op' ? [row.op.key] : [];
        })
        .slice(0, PREFETCH_FIRST_SHOWN)
        .forEach((key) => prefetchOperation(queryClient, source, key, index.contentHash));
    };
    // Soon after the list is shown (a visitor may click within a fraction of a second): asking is
    // cheap, the answers are parsed as they come. Safari has no requestIdleCallback.
    if ('requestIdleCallback' in window) requestIdleCallback(prefetch, { timeout: 100 });
    else setTimeout(prefetch, 0);
  }, [scrollMargin, rows, virtualizer, queryClient, source, index.contentHash]);
  useEffect(() => {
    window.addEventListener('hashchange', openFromHash);
    return () => window.removeEventListener('hashchange', openFromHash);
  }, [openFromHash]);

  const tagStarts = useMemo(
    () =>
      rows.flatMap((r, i) =>
        r.kind === 'tag' ? [{ name: r.webhooks ? t('products.webhooks') : r.tag.name, index: i }] : [],
      ),
    [rows, t],
  );
  const shownCount = useMemo(() => countRows(rows), [rows]);

  return (
    <section aria-labelledby="api-reference" data-testid="api-reference">
      <ReferenceHeader index={index} />
      <Box pos="sticky" top={0} bg="var(--mantine-color-body)" py="sm" style={{ zIndex: 2 }}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('products.searchOperations')}
            placeholder={t('products.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            type="search"
            style={{ flex: '1 1 280px' }}
          />
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="operation-count">
            {countLabel(t, shownCount)}
          </Text>
          {!source.preview && <TourSlot documentationAlias={index.alias} />}
        </Group>
        {tagStarts.length > 1 && (
          // Plain buttons: a document has dozens of tags, each a Mantine Anchor cost a style resolution.
          <nav className={classes.tagNav} aria-label={t('products.reference')}>
            {tagStarts.map((tag) => (
              <button
                key={tag.name}
                type="button"
                className={classes.tagLink}
                onClick={() => virtualizer.scrollToIndex(tag.index, { align: 'start' })}
              >
                {tag.name}
              </button>
            ))}
          </nav>
        )}
      </Box>
      {/* The try-out calls the sandbox, which answers the published version: not in a draft's preview. */}
      {!source.preview && (
        <TryoutHistoryButton
          documentationAlias={index.alias}
          operationKeyOf={(m, p) => operationKeyOf(index, m, p)}
        />
      )}
      {rows.length === 0 && <Text py="md">{t('products.noOperations')}</Text>}
      <div ref={listRef} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                width: '100%',
                transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
              }}
            >
              {row.kind === 'tag' ? (
                row.webhooks ? (
                  <WebhooksHeading />
                ) : (
                  <TagHeading
                    name={row.tag.name}
                    description={row.tag.description}
                    lang={langOf(index.translation)}
                  />
                )
              ) : (
                <OperationRow
                  row={row}
                  alias={index.alias}
                  contentHash={index.contentHash}
                  open={expanded.has(row.id)}
                  onToggle={toggle}
                  language={language}
                  onLanguageChange={setLanguage}
                />
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** This page's address naming one operation: the server shows it first, the app opens it. */
function addressOf(key: string): string {
  return operationAddress(window.location.pathname, window.location.search, key);
}

/** The key of the operation with this method and path, for the try-out history's re-run. */
export function operationKeyOf(index: OperationIndex, method: string, path: string): string | null {
  for (const tag of index.tags) {
    const found = tag.operations.find((o) => o.method === method && o.path === path);
    if (found) return found.key;
  }
  return null;
}

/*
 * The header, the tags' headings and the rows are memoized: the list renders again whenever an
 * operation opens or closes, the page scrolls or the list's offset is measured, and each time only
 * the rows whose props changed (the one toggled, the ones scrolled in) need to render.
 */
const ReferenceHeader = memo(function ReferenceHeader({ index }: { index: OperationIndex }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" mb="md">
      <Group gap="sm">
        <Title order={2} id="api-reference">
          {t('products.reference')}
        </Title>
        {index.version && <Badge variant="outline">{index.version}</Badge>}
      </Group>
      <TranslationNote marker={index.translation} />
      {index.description && (
        <Markdown
          text={index.description}
          fz="sm"
          data-testid="api-description"
          lang={langOf(index.translation)}
        />
      )}
      {index.servers.length > 0 && (
        <div>
          <Text size="sm" fw={600}>
            {t('products.servers')}
          </Text>
          {index.servers.map((s) => (
            <Text key={s} size="sm" ff="monospace">
              {s}
            </Text>
          ))}
        </div>
      )}
      {index.securitySchemes.length > 0 && (
        <div>
          <Text size="sm" fw={600}>
            {t('products.authentication')}
          </Text>
          {index.securitySchemes.map((s) => (
            <Box key={s.name} mb={4}>
              <Text size="sm">
                <Text span fw={600}>
                  {s.name}
                </Text>{' '}
                ({s.type}
                {s.scheme ? `, ${s.scheme}` : ''}
                {s.in ? `, ${s.in} ${s.paramName ?? ''}` : ''})
              </Text>
              <Text size="xs" c="dimmed" data-testid="scheme-credential">
                {t(`products.credential_${sandboxCredential(s)}`)}
              </Text>
              {Object.entries(s.flows ?? {}).map(([flow, f]) => (
                <Text key={flow} size="xs" c="dimmed" ff="monospace">
                  {flow}: {f?.tokenUrl ?? f?.authorizationUrl ?? ''}
                  {f && Object.keys(f.scopes).length > 0 ? ` [${Object.keys(f.scopes).join(', ')}]` : ''}
                </Text>
              ))}
            </Box>
          ))}
        </div>
      )}
    </Stack>
  );
});

const TagHeading = memo(function TagHeading({
  name,
  description,
  lang,
}: {
  name: string;
  description: string | null;
  /** `en` when the documentation has no translation into the page's language (decision 063). */
  lang?: string;
}) {
  return (
    <div className={classes.tagHeader}>
      <Title order={3} size="h4" data-testid="operation-tag">
        {name}
      </Title>
      {description && <Markdown text={description} fz="sm" c="dimmed" lang={lang} />}
    </div>
  );
});

const WebhooksHeading = memo(function WebhooksHeading() {
  const { t } = useTranslation();
  return (
    <div className={classes.tagHeader}>
      <Title order={3} size="h4" data-testid="webhooks-heading">
        {t('products.webhooks')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('products.webhooksIntro')}
      </Text>
    </div>
  );
});

const OperationRow = memo(function OperationRow({
  row,
  alias,
  contentHash,
  open,
  onToggle,
  language,
  onLanguageChange,
}: {
  row: ReferenceRow & { kind: 'op' };
  alias: string;
  contentHash: string;
  open: boolean;
  onToggle: (row: ReferenceRow & { kind: 'op' }) => void;
  language: string | null;
  onLanguageChange: (id: string) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const source = useReferenceSource();
  const op: OperationSummary = row.op;
  // A pointer on the row or the focus on it: the details are likely asked for next.
  const onPrefetch = () => {
    if (!open) prefetchOperation(queryClient, source, op.key, contentHash);
  };
  const panelId = `operation-panel-${row.id.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <div
      className={classes.operation}
      data-testid={op.webhook ? 'webhook' : 'operation'}
      data-operation={op.key}
    >
      {/* A screenful of rows renders at once and again while it is measured: plain elements styled
          by the module's classes, not Mantine components (each resolves its styles per render). */}
      <div className={classes.operationLine}>
        <button
          type="button"
          className={classes.operationHeader}
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => onToggle(row)}
          onPointerEnter={onPrefetch}
          onFocus={onPrefetch}
        >
          <span
            className={classes.method}
            style={{ background: METHOD_COLORS[op.method] ?? 'var(--mantine-color-gray-7)' }}
          >
            {op.method.toUpperCase()}
          </span>
          <span className={`${classes.path} ${op.deprecated ? classes.deprecatedPath : ''}`}>{op.path}</span>
          {op.webhook && (
            // Filled: the light variant's violet text on its tint is below 4.5:1 (axe, the preview of
            // the Payments API with its webhook).
            <Badge color="violet.8" variant="filled" size="sm">
              {t('products.webhookBadge')}
            </Badge>
          )}
          {op.deprecated && (
            <Badge color="orange" variant="light" size="sm">
              {t('products.deprecatedOperation')}
            </Badge>
          )}
          {op.secured && <IconLock size={14} aria-hidden="true" color="var(--mantine-color-dimmed)" />}
          {op.summary && <span className={classes.summary}>{op.summary}</span>}
        </button>
        <a
          className={classes.operationLink}
          href={addressOf(op.key)}
          onClick={(e) => {
            // Copied or opened elsewhere it is a whole address; here it opens the operation in place.
            e.preventDefault();
            window.history.replaceState(window.history.state, '', addressOf(op.key));
            if (!open) onToggle(row);
          }}
          aria-label={`${t('products.operationLink')}: ${op.method.toUpperCase()} ${op.path}`}
        >
          <IconLink size={16} aria-hidden="true" />
        </a>
      </div>
      {open && (
        <div id={panelId}>
          <OperationDetails
            alias={alias}
            operationKey={op.key}
            contentHash={contentHash}
            language={language}
            onLanguageChange={onLanguageChange}
          />
        </div>
      )}
    </div>
  );
});
