import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import DOMPurify from 'dompurify';
import { TranslationsPanel } from '../console/translations-panel';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import type {
  SiteDocument,
  SiteDocumentChange,
  SiteDocumentKey,
  SiteSaveMode,
} from '@portico/contracts/console-site';
import type {
  BlockLayout,
  BottomBanner,
  CarouselItem,
  CookiesConsent,
  FooterItem,
  GettingStartedBlock,
  SiteLink,
} from '@portico/contracts/site';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { ConsolePage } from '../console/console-layout';
import { formatDateTime } from '../../lib/text';
import { ContentTabs } from './editing';
import { fromLocalInput, isDirty, moved, toLocalInput } from './versioned';
import { useLeaveGuard, useVersionedSave } from './versioned-editor';
import { StateBadge } from './versioned-list';
import {
  discardSiteDraft,
  getSiteDocument,
  listSiteRevisions,
  restoreSiteRevision,
  saveSiteDocument,
  type SiteConflict,
} from './site-api';

type Section = 'carousel' | 'bottomBanners' | 'footer' | 'gettingStarted' | 'cookies';
const SECTIONS: Section[] = ['carousel', 'bottomBanners', 'footer', 'gettingStarted', 'cookies'];
const keyOf = (section: Section): SiteDocumentKey =>
  section === 'cookies' ? 'cookies-consent' : 'block-layout';

/**
 * A list of records edited in place: each in a fieldset named after its section and place, with
 * buttons to move it up or down and to remove it, and one to add a blank record at the end.
 */
function ListEditor<T>({
  name,
  items,
  blank,
  onChange,
  render,
  testId,
}: {
  name: string;
  items: T[];
  blank: () => T;
  onChange(items: T[]): void;
  render(item: T, update: (patch: Partial<T>) => void): ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid={testId}>
      {items.map((item, i) => {
        const legend = t('console.site.item', { section: name, n: i + 1 });
        return (
          // Records have no id of their own: their place is their identity while editing (every
          // field is controlled, so moving or removing one re-renders the right values).
          <Fieldset key={i} legend={legend} data-testid={`${testId}-item`}>
            <Stack gap="xs">
              {render(item, (patch) => onChange(items.map((it, j) => (j === i ? { ...it, ...patch } : it))))}
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  disabled={i === 0}
                  aria-label={`${t('console.site.moveUp')}: ${legend}`}
                  onClick={() => onChange(moved(items, i, -1))}
                >
                  {t('console.site.moveUp')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  disabled={i === items.length - 1}
                  aria-label={`${t('console.site.moveDown')}: ${legend}`}
                  onClick={() => onChange(moved(items, i, 1))}
                >
                  {t('console.site.moveDown')}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  aria-label={`${t('console.site.remove')}: ${legend}`}
                  onClick={() => onChange(items.filter((_, j) => j !== i))}
                >
                  {t('console.site.remove')}
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      <Group>
        <Button variant="light" onClick={() => onChange([...items, blank()])}>
          {t('console.site.add')}: {name}
        </Button>
      </Group>
    </Stack>
  );
}

function LinkFields({ link, onChange }: { link: SiteLink; onChange(patch: Partial<SiteLink>): void }) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-end">
      <TextInput
        label={t('console.site.fields.title')}
        value={link.title}
        onChange={(e) => onChange({ title: e.currentTarget.value })}
      />
      <TextInput
        label={t('console.site.fields.url')}
        value={link.url}
        onChange={(e) => onChange({ url: e.currentTarget.value })}
      />
      <Checkbox
        label={t('console.site.fields.external')}
        checked={link.external}
        onChange={(e) => onChange({ external: e.currentTarget.checked })}
      />
    </Group>
  );
}

const blankLink = (): SiteLink => ({ title: '', url: '', external: false });

/** The block layout's sections, each edited as a list. */
function LayoutSection({
  section,
  layout,
  onChange,
}: {
  section: Exclude<Section, 'cookies'>;
  layout: BlockLayout;
  onChange(layout: BlockLayout): void;
}) {
  const { t } = useTranslation();
  const name = t(`console.site.tabs.${section}`);
  const f = (field: string) => t(`console.site.fields.${field}` as 'console.site.fields.title');
  if (section === 'carousel')
    return (
      <ListEditor<CarouselItem>
        name={name}
        testId="site-carousel"
        items={layout.carousel}
        blank={() => ({
          key: `slide-${layout.carousel.length + 1}`,
          title: '',
          text: '',
          image_url: '',
          visibleFor: 6,
        })}
        onChange={(carousel) => onChange({ ...layout, carousel })}
        render={(item, update) => (
          <>
            <Group grow>
              <TextInput
                label={f('key')}
                value={item.key}
                onChange={(e) => update({ key: e.currentTarget.value })}
              />
              <TextInput
                label={f('title')}
                value={item.title}
                onChange={(e) => update({ title: e.currentTarget.value })}
              />
            </Group>
            <Textarea
              label={f('text')}
              autosize
              minRows={2}
              value={item.text}
              onChange={(e) => update({ text: e.currentTarget.value })}
            />
            <Group grow>
              <TextInput
                label={f('imageUrl')}
                value={item.image_url}
                onChange={(e) => update({ image_url: e.currentTarget.value })}
              />
              <NumberInput
                label={f('visibleFor')}
                min={1}
                value={item.visibleFor}
                onChange={(v) => update({ visibleFor: typeof v === 'number' ? v : Number(v) || 0 })}
              />
            </Group>
            <Group grow align="flex-end">
              <TextInput
                label={f('linkUrl')}
                value={item.link?.url ?? ''}
                onChange={(e) => {
                  const url = e.currentTarget.value;
                  update({ link: url ? { url, external: item.link?.external ?? false } : undefined });
                }}
              />
              <Checkbox
                label={f('external')}
                disabled={!item.link}
                checked={item.link?.external ?? false}
                onChange={(e) =>
                  item.link && update({ link: { ...item.link, external: e.currentTarget.checked } })
                }
              />
            </Group>
          </>
        )}
      />
    );
  if (section === 'bottomBanners')
    return (
      <ListEditor<BottomBanner>
        name={name}
        testId="site-banners"
        items={layout.bottomBanners}
        blank={() => ({ title: '', description: '' })}
        onChange={(bottomBanners) => onChange({ ...layout, bottomBanners })}
        render={(item, update) => (
          <>
            <TextInput
              label={f('title')}
              value={item.title}
              onChange={(e) => update({ title: e.currentTarget.value })}
            />
            <Textarea
              label={f('description')}
              autosize
              minRows={2}
              styles={{ input: { fontFamily: 'monospace' } }}
              value={item.description}
              onChange={(e) => update({ description: e.currentTarget.value })}
            />
            <TextInput
              label={f('imageUrl')}
              value={item.image_url ?? ''}
              onChange={(e) => update({ image_url: e.currentTarget.value || undefined })}
            />
          </>
        )}
      />
    );
  if (section === 'footer')
    return (
      <Stack>
        <ListEditor<FooterItem>
          name={name}
          testId="site-footer"
          items={layout.footer}
          blank={() => ({ title: '', links: [] })}
          onChange={(footer) => onChange({ ...layout, footer })}
          render={(item, update) => (
            <>
              <TextInput
                label={f('title')}
                value={item.title}
                onChange={(e) => update({ title: e.currentTarget.value })}
              />
              <ListEditor<SiteLink>
                name={`${item.title || name} · ${t('console.site.link')}`}
                testId="site-footer-links"
                items={item.links}
                blank={blankLink}
                onChange={(links) => update({ links })}
                render={(link, updateLink) => <LinkFields link={link} onChange={updateLink} />}
              />
            </>
          )}
        />
        <Title order={2} size="h5">
          {t('console.site.socialLinks')}
        </Title>
        <ListEditor<SiteLink>
          name={t('console.site.socialLinks')}
          testId="site-social"
          items={layout.social}
          blank={() => ({ ...blankLink(), external: true })}
          onChange={(social) => onChange({ ...layout, social })}
          render={(link, update) => <LinkFields link={link} onChange={update} />}
        />
      </Stack>
    );
  return (
    <ListEditor<GettingStartedBlock>
      name={name}
      testId="site-started"
      items={layout.gettingStarted}
      blank={() => ({ title: '', description: '' })}
      onChange={(gettingStarted) => onChange({ ...layout, gettingStarted })}
      render={(item, update) => (
        <>
          <TextInput
            label={f('title')}
            value={item.title}
            onChange={(e) => update({ title: e.currentTarget.value })}
          />
          <Textarea
            label={f('description')}
            autosize
            minRows={2}
            styles={{ input: { fontFamily: 'monospace' } }}
            value={item.description}
            onChange={(e) => update({ description: e.currentTarget.value })}
          />
          <Group grow align="flex-end">
            <TextInput
              label={f('linkTitle')}
              value={item.link?.title ?? ''}
              onChange={(e) =>
                update({
                  link: {
                    url: item.link?.url ?? '',
                    external: false,
                    ...item.link,
                    title: e.currentTarget.value,
                  },
                })
              }
            />
            <TextInput
              label={f('linkUrl')}
              value={item.link?.url ?? ''}
              onChange={(e) =>
                update({
                  link: {
                    title: item.link?.title ?? '',
                    external: false,
                    ...item.link,
                    url: e.currentTarget.value,
                  },
                })
              }
            />
          </Group>
        </>
      )}
    />
  );
}

function CookieFields({ consent, onChange }: { consent: CookiesConsent; onChange(c: CookiesConsent): void }) {
  const { t } = useTranslation();
  const popup = (patch: Partial<CookiesConsent['popup']>) =>
    onChange({ ...consent, popup: { ...consent.popup, ...patch } });
  return (
    <Stack gap="xs" data-testid="site-cookies">
      <Textarea
        label={t('console.site.fields.popupBody')}
        autosize
        minRows={2}
        value={consent.popup.body}
        onChange={(e) => popup({ body: e.currentTarget.value })}
      />
      <Group grow>
        <TextInput
          label={t('console.site.fields.accept')}
          value={consent.popup.accept}
          onChange={(e) => popup({ accept: e.currentTarget.value })}
        />
        <TextInput
          label={t('console.site.fields.dismiss')}
          value={consent.popup.dismiss}
          onChange={(e) => popup({ dismiss: e.currentTarget.value })}
        />
      </Group>
      <TextInput
        label={t('console.site.fields.labelCheckBox')}
        value={consent.labelCheckBox}
        onChange={(e) => onChange({ ...consent, labelCheckBox: e.currentTarget.value })}
      />
      <NumberInput
        label={t('console.site.fields.expiryDays')}
        min={1}
        value={consent.expiryDays}
        onChange={(v) => onChange({ ...consent, expiryDays: typeof v === 'number' ? v : Number(v) || 0 })}
      />
    </Stack>
  );
}

/** What the section looks like on the site, from the form's values (HTML sanitized here too). */
function Preview({
  section,
  layout,
  consent,
}: {
  section: Section;
  layout: BlockLayout;
  consent: CookiesConsent;
}) {
  const clean = (html: string) => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
  let body: ReactNode;
  if (section === 'carousel')
    body = (
      <Stack gap="xs">
        {layout.carousel.map((s, i) => (
          <Group key={i} wrap="nowrap" align="flex-start">
            {s.image_url && (
              <img src={s.image_url} alt="" width={96} height={54} style={{ objectFit: 'cover' }} />
            )}
            <Box>
              <Text fw={700}>{s.title}</Text>
              <Text size="sm">{s.text}</Text>
            </Box>
          </Group>
        ))}
      </Stack>
    );
  else if (section === 'bottomBanners')
    body = (
      <SimpleGrid cols={{ base: 1, sm: Math.max(1, layout.bottomBanners.length) }}>
        {layout.bottomBanners.map((b, i) => (
          <Stack key={i} gap={4}>
            <Text fw={700}>{b.title}</Text>
            <HtmlContent html={clean(b.description)} />
          </Stack>
        ))}
      </SimpleGrid>
    );
  else if (section === 'footer')
    body = (
      <SimpleGrid cols={{ base: 1, sm: Math.max(1, layout.footer.length) }}>
        {layout.footer.map((c, i) => (
          <Stack key={i} gap={2}>
            <Text fw={700}>{c.title}</Text>
            {c.links.map((l, j) => (
              <Text key={j} size="sm" c="blue">
                {l.title}
              </Text>
            ))}
          </Stack>
        ))}
      </SimpleGrid>
    );
  else if (section === 'gettingStarted')
    body = (
      <Stack gap="sm">
        {layout.gettingStarted.map((b, i) => (
          <Box key={i}>
            <Text fw={700}>
              {i + 1}. {b.title}
            </Text>
            <HtmlContent html={clean(b.description)} />
            {b.link && (
              <Text size="sm" c="blue">
                {b.link.title}
              </Text>
            )}
          </Box>
        ))}
      </Stack>
    );
  else
    body = (
      <Stack gap="xs">
        <Text size="sm">{consent.popup.body}</Text>
        <Group gap="xs">
          <Badge size="lg" radius="sm">
            {consent.popup.accept}
          </Badge>
          <Badge size="lg" radius="sm" variant="default">
            {consent.popup.dismiss}
          </Badge>
        </Group>
        <Text size="sm">☐ {consent.labelCheckBox}</Text>
      </Stack>
    );
  return (
    <Paper withBorder p="md" data-testid="site-preview">
      {body}
    </Paper>
  );
}

function ConflictPanel({
  conflict,
  onReload,
  onOverwrite,
}: {
  conflict: SiteConflict;
  onReload(): void;
  onOverwrite(): void;
}) {
  const { t } = useTranslation();
  return (
    <Alert color="orange" role="alert" title={t('console.site.conflictTitle')} data-testid="site-conflict">
      <Text size="sm" mb="xs">
        {t('console.site.conflictText', { version: conflict.current.version })}
      </Text>
      <Box component="pre" style={{ whiteSpace: 'pre-wrap', fontSize: 12, maxHeight: 240, overflow: 'auto' }}>
        {conflict.changes
          .filter((c) => c.added || c.removed)
          .flatMap((c) =>
            c.value
              .replace(/\n$/, '')
              .split('\n')
              .map((line) => `${c.added ? '+' : '−'} ${line}`),
          )
          .join('\n')}
      </Box>
      <Group mt="sm">
        <Button size="xs" onClick={onReload}>
          {t('console.site.reload')}
        </Button>
        <Button size="xs" variant="default" onClick={onOverwrite}>
          {t('console.site.overwrite')}
        </Button>
      </Group>
    </Alert>
  );
}

function Revisions({
  docKey,
  version,
  onRestored,
}: {
  docKey: SiteDocumentKey;
  version: number;
  onRestored(d: SiteDocument, revision: number): void;
}) {
  const { t } = useTranslation();
  const revisions = useQuery({
    queryKey: ['console-site-revisions', docKey, version],
    queryFn: () => listSiteRevisions(docKey),
  });
  const restore = useMutation({
    mutationFn: (revision: number) => restoreSiteRevision(docKey, revision, version),
    onSuccess: ({ data }, revision) => onRestored(data, revision),
  });
  const list = revisions.data?.data ?? [];
  return (
    <Stack gap="xs" data-testid="site-revisions">
      <Title order={2} size="h4">
        {t('console.site.revisions')}
      </Title>
      {restore.error && (
        <Alert color="red" role="alert">
          {messageOf(restore.error, t('console.site.saveFailed'))}
        </Alert>
      )}
      {list.length === 0 && <Text size="sm">{t('console.site.noRevisions')}</Text>}
      {list.map((r) => (
        <Group key={r.version} justify="space-between">
          <Text size="sm">
            {r.state
              ? t('console.site.revisionWithState', {
                  version: r.version,
                  state: t(`console.site.revisionState.${r.state}`),
                  date: formatDateTime(r.created),
                  author: r.author ?? t('console.site.importAuthor'),
                })
              : t('console.site.revision', {
                  version: r.version,
                  date: formatDateTime(r.created),
                  author: r.author ?? t('console.site.importAuthor'),
                })}
          </Text>
          {r.version !== version && (
            <Button
              size="xs"
              variant="default"
              aria-label={`${t('console.site.restore')}: ${r.version}`}
              loading={restore.isPending && restore.variables === r.version}
              onClick={() => restore.mutate(r.version)}
            >
              {t('console.site.restore')}
            </Button>
          )}
        </Group>
      ))}
    </Stack>
  );
}

/** A document's state: live, a draft pending, or scheduled (and when). */
function DocumentState({ document }: { document: SiteDocument }) {
  const { t } = useTranslation();
  const [state, label] = !document.draft
    ? (['published', t('console.site.state.live')] as const)
    : document.publishAt
      ? ([
          'scheduled',
          t('console.site.state.scheduled', { date: formatDateTime(document.publishAt) }),
        ] as const)
      : (['draft', t('console.site.state.draft')] as const);
  return (
    <Group gap="xs" data-testid="site-state">
      <Text size="sm">{t('console.site.state.label')}:</Text>
      <StateBadge state={state} label={label} />
      <Text size="sm" c="dimmed">
        {t('console.content.revisions.version', { version: document.version })}
      </Text>
    </Group>
  );
}

/** The form's content of a document: its pending version when it has one, else the live one. */
const edited = <K extends SiteDocumentKey>(d: SiteDocument<K>) => d.draft ?? d.content;

/**
 * /admin/content/site: the site's own texts (issue 27): the home page's carousel and banners, the
 * footer and social links, the Getting Started timeline and the cookie popup, each in a form with
 * a preview. A save sends the whole document with the version it started from, to publish it, to
 * keep it as a draft, or to schedule it; a pending draft is what the form and the preview show,
 * and can be discarded.
 */
export default function SiteTextsPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="content_editor" title={t('console.site.title')}>
      <SiteTexts />
    </ConsolePage>
  );
}

function SiteTexts() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [section, setSection] = useState<Section>('carousel');
  const layoutQuery = useQuery({
    queryKey: ['console-site', 'block-layout'],
    queryFn: () => getSiteDocument('block-layout'),
  });
  const consentQuery = useQuery({
    queryKey: ['console-site', 'cookies-consent'],
    queryFn: () => getSiteDocument('cookies-consent'),
  });
  // The form's values: null until the editor changes something (then the loaded document's).
  const [layout, setLayout] = useState<{ version: number; content: BlockLayout } | null>(null);
  const [consent, setConsent] = useState<{ version: number; content: CookiesConsent } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const loadedLayout = layoutQuery.data?.data;
  const loadedConsent = consentQuery.data?.data;
  const currentLayout =
    layout ?? (loadedLayout ? { version: loadedLayout.version, content: edited(loadedLayout) } : null);
  const currentConsent =
    consent ?? (loadedConsent ? { version: loadedConsent.version, content: edited(loadedConsent) } : null);
  const docKey = keyOf(section);
  const activeDocument: SiteDocument | undefined = docKey === 'block-layout' ? loadedLayout : loadedConsent;
  useLeaveGuard(
    isDirty(currentLayout?.content, loadedLayout && edited(loadedLayout)) ||
      isDirty(currentConsent?.content, loadedConsent && edited(loadedConsent)),
  );

  const replaced = (d: SiteDocument) => {
    client.setQueryData(['console-site', d.key], { data: d });
    if (d.key === 'block-layout') setLayout({ version: d.version, content: edited(d) as BlockLayout });
    else setConsent({ version: d.version, content: edited(d) as CookiesConsent });
  };

  const [failure, setFailure] = useState<string | null>(null);
  // What the next save does (publish, draft, schedule): kept for a save over a conflict too.
  const mode = useRef<SiteSaveMode>('publish');
  const [savingMode, setSavingMode] = useState<SiteSaveMode>('publish');
  const [publishAt, setPublishAt] = useState<string | null>(null);
  // The date-time typed, else when the document is scheduled already.
  const scheduleAt = publishAt ?? activeDocument?.publishAt ?? null;
  const save = useVersionedSave<SiteDocument, SiteDocumentChange>({
    save: (version) => {
      setNotice(null);
      setFailure(null);
      const when = mode.current === 'schedule' ? scheduleAt : null;
      if (docKey === 'block-layout')
        return saveSiteDocument(
          'block-layout',
          currentLayout!.content,
          version ?? currentLayout!.version,
          mode.current,
          when,
        );
      return saveSiteDocument(
        'cookies-consent',
        currentConsent!.content,
        version ?? currentConsent!.version,
        mode.current,
        when,
      );
    },
    onSaved: (data) => {
      replaced(data);
      setNotice(
        data.draft && data.publishAt
          ? t('console.site.scheduled', { version: data.version, date: formatDateTime(data.publishAt) })
          : data.draft
            ? t('console.site.savedDraft', { version: data.version })
            : t('console.site.saved', { version: data.version }),
      );
    },
    onFailed: setFailure,
    failed: t('console.site.saveFailed'),
  });
  const { conflict } = save;
  const run = (next: SiteSaveMode) => {
    mode.current = next;
    setSavingMode(next);
    save.run();
  };
  const discard = useMutation({
    mutationFn: (version: number) => discardSiteDraft(docKey, version),
    onMutate: () => {
      setNotice(null);
      setFailure(null);
    },
    onSuccess: ({ data }) => {
      replaced(data);
      save.drop();
      setNotice(t('console.site.discarded', { version: data.version }));
    },
    onError: (err) => setFailure(messageOf(err, t('console.site.saveFailed'))),
  });

  if (layoutQuery.isPending || consentQuery.isPending) return <Loading />;
  if (!currentLayout || !currentConsent)
    return (
      <Alert color="red" role="alert">
        {t('console.site.loadFailed')}
      </Alert>
    );
  const activeVersion = docKey === 'block-layout' ? currentLayout.version : currentConsent.version;
  return (
    <>
      <ContentTabs />
      <Text mb="md">{t('console.site.intro')}</Text>
      <Tabs
        value={section}
        onChange={(v) => {
          setSection((v as Section | null) ?? 'carousel');
          setNotice(null);
          setFailure(null);
          save.drop();
        }}
      >
        <Tabs.List mb="md">
          {SECTIONS.map((s) => (
            <Tabs.Tab key={s} value={s}>
              {t(`console.site.tabs.${s}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Stack>
        {activeDocument && <DocumentState document={activeDocument} />}
        {notice && (
          <Alert color="green" role="status">
            {notice}
          </Alert>
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {conflict && (
          <ConflictPanel
            conflict={conflict}
            onReload={() => {
              replaced(conflict.current);
              save.drop();
            }}
            onOverwrite={save.overwrite}
          />
        )}
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="xl">
          <Box
            component="form"
            aria-label={t(`console.site.tabs.${section}`)}
            onSubmit={(e) => {
              e.preventDefault();
              run('publish');
            }}
          >
            <Stack>
              {section === 'cookies' ? (
                <CookieFields
                  consent={currentConsent.content}
                  onChange={(content) => setConsent({ version: currentConsent.version, content })}
                />
              ) : (
                <LayoutSection
                  section={section}
                  layout={currentLayout.content}
                  onChange={(content) => setLayout({ version: currentLayout.version, content })}
                />
              )}
              <Group align="flex-end">
                <Button type="submit" loading={save.saving && savingMode === 'publish'}>
                  {t('console.site.save')}
                </Button>
                <Button
                  variant="default"
                  loading={save.saving && savingMode === 'draft'}
                  onClick={() => run('draft')}
                >
                  {t('console.site.saveDraft')}
                </Button>
                {activeDocument?.draft && (
                  <Button
                    color="red"
                    variant="outline"
                    loading={discard.isPending}
                    onClick={() => {
                      if (window.confirm(t('console.site.discardConfirm'))) discard.mutate(activeVersion);
                    }}
                  >
                    {t('console.site.discardDraft')}
                  </Button>
                )}
              </Group>
              <Group align="flex-end">
                <TextInput
                  type="datetime-local"
                  step={1}
                  label={t('console.site.publishAt')}
                  value={toLocalInput(scheduleAt)}
                  onChange={(e) => setPublishAt(fromLocalInput(e.currentTarget.value))}
                />
                <Button
                  variant="default"
                  disabled={!scheduleAt}
                  loading={save.saving && savingMode === 'schedule'}
                  onClick={() => run('schedule')}
                >
                  {t('console.site.schedule')}
                </Button>
              </Group>
            </Stack>
          </Box>
          <Stack>
            <Title order={2} size="h4">
              {activeDocument?.draft ? t('console.site.previewDraft') : t('console.site.preview')}
            </Title>
            <Preview section={section} layout={currentLayout.content} consent={currentConsent.content} />
            <Revisions
              docKey={docKey}
              version={activeVersion}
              onRestored={(d, revision) => {
                replaced(d);
                setNotice(t('console.site.restored', { version: revision }));
              }}
            />
          </Stack>
        </SimpleGrid>
        {/* The live document's texts in other languages (decision 064); a new version lists its texts anew. */}
        <TranslationsPanel key={`${docKey}-${activeVersion}`} item={`/admin-api/site/${docKey}`} />
      </Stack>
    </>
  );
}
