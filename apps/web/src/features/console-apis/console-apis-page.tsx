import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import type { ApiDraft, ApiListItem, OperationChanges } from '@portico/contracts/api-drafts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { IconEye } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
// Every console page wraps itself in the console's frame (features/console, issue 27).
import { TranslationsPanel } from '../console/translations-panel';
import { ConsolePage } from '../console/console-layout';
import { discardDraft, fetchAudience, listApis, publishDraft, sendNotice, uploadDraft } from './api';
import { ComparisonTableList } from './comparison-editor-page';
import { ProductList } from './product-list';

/** One error of a refused upload: the document's problems with their lines (decision 033). */
interface ServerError {
  title?: string;
  detail?: string;
  meta?: { line?: number };
}

/**
 * /admin/apis: the API managers' API products (issue 27, decision 047). The products in the
 * catalog's order, moved up and down, each with its form (product-list.tsx). The APIs with their
 * versions; a new version uploaded (with its progress) as a draft; its change summary with the
 * breaking changes marked, the operations as the documentation will list them, the scopes to
 * review and the changelog text to edit; publication (or the draft discarded, after a
 * confirmation); then the notice to the applications that called the broken operations.
 */
export default function ConsoleApisPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="api_manager" title={t('console.apis.title')}>
      <Stack gap="xl">
        <ProductList />
        <ComparisonTableList />
        <ApiProducts />
      </Stack>
    </ConsolePage>
  );
}

type Target = { alias: string; title: string; isNew: boolean };

function ApiProducts() {
  const { t } = useTranslation();
  const apis = useQuery({ queryKey: ['console-apis'], queryFn: listApis });
  const [target, setTarget] = useState<Target | null>(null);
  const [draft, setDraft] = useState<ApiDraft | null>(null);
  // The API whose translations are open (its title, description and tags', decision 063).
  const [translating, setTranslating] = useState<{ alias: string; title: string } | null>(null);
  // What the last discard said, until something else is chosen.
  const [discarded, setDiscarded] = useState('');
  const choose = (next: Target) => {
    setDraft(null);
    setDiscarded('');
    setTarget(next);
  };
  const onDiscarded = (gone: ApiDraft) => {
    setDraft(null);
    setTarget(null);
    setDiscarded(t('console.apis.discarded', { version: gone.toVersion ?? '', title: gone.title }));
  };
  return (
    <Stack gap="lg">
      <Text>{t('console.apis.intro')}</Text>
      {apis.isError && <Alert color="red">{messageOf(apis.error, t('errors.somethingWentWrong'))}</Alert>}
      {apis.data && <ApiTable apis={apis.data} onUpload={choose} onTranslate={setTranslating} />}
      <Group>
        <Button variant="default" onClick={() => choose({ alias: '', title: '', isNew: true })}>
          {t('console.apis.newApi')}
        </Button>
      </Group>
      {target && !draft && (
        <UploadForm key={`${target.alias}-${String(target.isNew)}`} target={target} onDraft={setDraft} />
      )}
      {draft && <DraftReview draft={draft} onChange={setDraft} onDiscarded={onDiscarded} />}
      {translating && (
        <div data-testid="documentation-translations">
          <Text fw={700}>{translating.title}</Text>
          <TranslationsPanel
            key={translating.alias}
            item={`/admin-api/catalog/documentations/${encodeURIComponent(translating.alias)}`}
            fields={[
              { name: 'title', label: t('console.apis.translationTitle'), required: true },
              { name: 'description', label: t('console.apis.translationDescription'), multiline: true },
              {
                name: 'tags',
                label: '',
                entryLabel: (tag) => t('console.apis.translationTag', { tag }),
              },
            ]}
          />
        </div>
      )}
      <Text role="status" data-testid="draft-discarded">
        {discarded}
      </Text>
    </Stack>
  );
}

function ApiTable({
  apis,
  onUpload,
  onTranslate,
}: {
  apis: ApiListItem[];
  onUpload: (t: Target) => void;
  onTranslate: (api: { alias: string; title: string }) => void;
}) {
  const { t } = useTranslation();
  if (!apis.length) return <Text c="dimmed">{t('console.apis.empty')}</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-label={t('console.apis.listLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('console.apis.columns.api')}</Table.Th>
            <Table.Th>{t('console.apis.columns.version')}</Table.Th>
            <Table.Th>{t('console.apis.columns.operations')}</Table.Th>
            <Table.Th>{t('console.apis.columns.product')}</Table.Th>
            <Table.Th>{t('console.apis.columns.versions')}</Table.Th>
            <Table.Th>{t('console.apis.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {apis.map((api) => (
            <Table.Tr key={api.alias} data-testid={`api-row-${api.alias}`}>
              <Table.Td>
                <Anchor component={Link} to={`/documentation/${api.alias}`}>
                  {api.title}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {api.alias}
                </Text>
              </Table.Td>
              <Table.Td>{api.version ?? ''}</Table.Td>
              <Table.Td>{api.operationCount ?? ''}</Table.Td>
              <Table.Td>{api.product?.title ?? ''}</Table.Td>
              <Table.Td>
                {api.versions.length
                  ? api.versions.map((v) => v.version).join(', ')
                  : t('console.apis.noVersions')}
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  aria-label={`${t('console.apis.uploadNewVersion')}: ${api.title}`}
                  onClick={() => onUpload({ alias: api.alias, title: api.title, isNew: false })}
                >
                  {t('console.apis.uploadNewVersion')}
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  ml="xs"
                  aria-label={`${t('console.apis.translate')}: ${api.title}`}
                  onClick={() => onTranslate({ alias: api.alias, title: api.title })}
                >
                  {t('console.apis.translate')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function UploadForm({ target, onDraft }: { target: Target; onDraft: (d: ApiDraft) => void }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [alias, setAlias] = useState(target.alias);
  const [product, setProduct] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const upload = useMutation({
    mutationFn: (input: { file: File; alias: string; product: string }) =>
      uploadDraft(input.alias, input.file, { product: input.product }, setProgress),
    onSuccess: onDraft,
    onSettled: () => setProgress(null),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!file || !alias.trim()) return;
    setProgress(0);
    upload.mutate({ file, alias: alias.trim(), product: product.trim() });
  };
  const problems = upload.error instanceof ApiError ? serverErrors(upload.error) : [];
  return (
    <Stack component="form" onSubmit={submit} gap="sm" maw={640}>
      <Title order={2} size="h3" ref={headingRef} tabIndex={-1}>
        {target.isNew
          ? t('console.apis.newApiTitle')
          : t('console.apis.uploadTitle', { title: target.title })}
      </Title>
      {target.isNew && (
        <>
          <TextInput
            label={t('console.apis.aliasLabel')}
            description={t('console.apis.aliasHelp')}
            value={alias}
            onChange={(e) => setAlias(e.currentTarget.value)}
            required
          />
          <TextInput
            label={t('console.apis.productLabel')}
            description={t('console.apis.productHelp')}
            value={product}
            onChange={(e) => setProduct(e.currentTarget.value)}
            required
          />
        </>
      )}
      <FileInput
        label={t('console.apis.fileLabel')}
        description={t('console.apis.fileHelp')}
        value={file}
        onChange={setFile}
        accept=".json,.yaml,.yml,application/json,application/yaml"
        required
        clearable
      />
      <Group>
        <Button type="submit" loading={upload.isPending} disabled={!file || !alias.trim()}>
          {t('console.apis.upload')}
        </Button>
      </Group>
      {progress !== null && (
        <Stack gap={4} role="status" aria-live="polite">
          <Progress value={Math.round(progress * 100)} aria-label={t('console.apis.progressLabel')} />
          <Text size="sm">
            {progress < 1
              ? t('console.apis.uploading', { percent: Math.round(progress * 100) })
              : t('console.apis.checking')}
          </Text>
        </Stack>
      )}
      {upload.isError && (
        <Alert
          color="red"
          title={problems.length > 1 || problems[0]?.detail ? t('console.apis.problemsTitle') : undefined}
          role="alert"
        >
          <Text size="sm" mb={problems.some((p) => p.detail) ? 'xs' : 0}>
            {messageOf(upload.error, t('errors.somethingWentWrong'))}
          </Text>
          {problems.some((p) => p.detail) && (
            <List size="sm" aria-label={t('console.apis.problemsTitle')} data-testid="draft-problems">
              {problems
                .filter((p) => p.detail)
                .map((p, i) => (
                  <List.Item key={i}>
                    {p.meta?.line
                      ? t('console.apis.problemLine', { line: p.meta.line, detail: p.detail ?? '' })
                      : p.detail}
                  </List.Item>
                ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}

function serverErrors(err: ApiError): ServerError[] {
  const body = err.body as { errors?: ServerError[] } | undefined;
  return Array.isArray(body?.errors) ? body.errors : [];
}

function OperationList({ ops, label }: { ops: OperationChanges[]; label: string }) {
  const { t } = useTranslation();
  if (!ops.length) return null;
  return (
    <Stack gap={4}>
      <Title order={4} size="h5">
        {label}
      </Title>
      <List spacing={6} aria-label={label}>
        {ops.map((op) => (
          <List.Item key={op.endpoint} data-testid="change-operation">
            <Group gap="xs" wrap="wrap">
              <Code>{op.endpoint}</Code>
              {op.summary && <Text size="sm">{op.summary}</Text>}
              {op.breaking && (
                <Badge color="red" variant="filled">
                  {t('console.apis.breaking')}
                </Badge>
              )}
            </Group>
            {op.changes.length > 0 &&
              !(op.changes.length === 1 && /^operation(Added|Removed)$/.test(op.changes[0]!.code)) && (
                <List size="sm" withPadding>
                  {op.changes.map((c, i) => (
                    <List.Item key={i}>
                      {c.text}
                      {c.breaking && (
                        <Badge ml="xs" size="sm" color="red" variant="light">
                          {t('console.apis.breaking')}
                        </Badge>
                      )}
                    </List.Item>
                  ))}
                </List>
              )}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

function DraftReview({
  draft,
  onChange,
  onDiscarded,
}: {
  draft: ApiDraft;
  onChange: (d: ApiDraft) => void;
  onDiscarded: (d: ApiDraft) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [changelog, setChangelog] = useState(draft.changelogText);
  const [version, setVersion] = useState(draft.toVersion ?? '');
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [draft.status]);
  const publish = useMutation({
    mutationFn: () => publishDraft(draft.alias, draft.id, changelog, version),
    onSuccess: async (d) => {
      onChange(d);
      await queryClient.invalidateQueries({ queryKey: ['console-apis'] });
    },
  });
  const { summary } = draft;
  const published = draft.status === 'published';
  return (
    <Stack gap="md">
      <Title order={2} size="h3" ref={headingRef} tabIndex={-1}>
        {t('console.apis.draftTitle', { version: draft.toVersion ?? '', title: draft.title })}
      </Title>
      <Text size="sm">
        {t('console.apis.fromTo', { from: draft.fromVersion ?? '–', to: draft.toVersion ?? '–' })}
      </Text>

      <Stack gap="sm" component="section" aria-labelledby="draft-summary-title">
        <Group gap="sm">
          <Title order={3} size="h4" id="draft-summary-title">
            {t('console.apis.summaryTitle')}
          </Title>
          {summary.breakingCount > 0 && (
            <Badge color="red" variant="light">
              {t('console.apis.breakingCount', { count: summary.breakingCount })}
            </Badge>
          )}
        </Group>
        {summary.added.length + summary.removed.length + summary.changed.length === 0 && (
          <Text c="dimmed">{t('console.apis.noChanges')}</Text>
        )}
        <OperationList ops={summary.added} label={t('console.apis.added', { count: summary.added.length })} />
        <OperationList
          ops={summary.removed}
          label={t('console.apis.removed', { count: summary.removed.length })}
        />
        <OperationList
          ops={summary.changed}
          label={t('console.apis.changed', { count: summary.changed.length })}
        />
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="draft-preview-title">
        <Title order={3} size="h4" id="draft-preview-title">
          {t('console.apis.previewTitle')}
        </Title>
        <Text size="sm">{t('console.apis.previewIntro')}</Text>
        <div>
          {/* The draft rendered by the documentation page's own reference, in a tab of its own so
              that this review stays as it is. */}
          <Button
            component="a"
            href={paths.adminDraftPreview(draft.alias, draft.id)}
            target="_blank"
            rel="noopener"
            variant="light"
            leftSection={<IconEye size={16} aria-hidden="true" />}
            aria-describedby="draft-preview-help"
            data-testid="draft-preview-link"
          >
            {t('console.apis.previewOpen')}
          </Button>
          <Text size="xs" c="dimmed" mt={4} id="draft-preview-help">
            {t('console.apis.previewOpenHelp')}
          </Text>
        </div>
        <List spacing={4} data-testid="draft-preview">
          {draft.operations.map((op) => (
            <List.Item key={op.endpoint}>
              <Group gap="xs" wrap="wrap">
                <Badge variant="outline">{op.method}</Badge>
                <Code>{op.path}</Code>
                {op.summary && <Text size="sm">{op.summary}</Text>}
              </Group>
            </List.Item>
          ))}
        </List>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="draft-scopes-title">
        <Title order={3} size="h4" id="draft-scopes-title">
          {t('console.apis.scopesTitle')}
        </Title>
        <Text size="sm">{t('console.apis.scopesIntro')}</Text>
        {draft.scopes.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('console.apis.noScopes')}
          </Text>
        ) : (
          <List spacing={4}>
            {draft.scopes.map((s) => (
              <List.Item key={s.scope}>
                <Group gap="xs" wrap="wrap">
                  <Code>{s.scope}</Code>
                  {s.added && <Badge color="yellow">{t('console.apis.newScope')}</Badge>}
                  <Text size="sm">{s.endpoints.join(', ')}</Text>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>

      {!published ? (
        <Stack
          component="form"
          gap="sm"
          maw={720}
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            publish.mutate();
          }}
        >
          <TextInput
            label={t('console.apis.versionLabel')}
            value={version}
            onChange={(e) => setVersion(e.currentTarget.value)}
          />
          <Textarea
            label={t('console.apis.changelogLabel')}
            description={t('console.apis.changelogHelp')}
            value={changelog}
            onChange={(e) => setChangelog(e.currentTarget.value)}
            autosize
            minRows={6}
            required
          />
          {publish.isError && (
            <Alert color="red" role="alert">
              {messageOf(publish.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={publish.isPending} disabled={!changelog.trim()}>
              {t('console.apis.publish')}
            </Button>
            <DiscardDraft draft={draft} disabled={publish.isPending} onDiscarded={onDiscarded} />
          </Group>
        </Stack>
      ) : (
        <>
          <Alert color="green" role="status" data-testid="draft-published">
            {t('console.apis.published', { version: draft.toVersion ?? '', title: draft.title })}{' '}
            <Anchor component={Link} to={`/documentation/${draft.alias}`}>
              {draft.title}
            </Anchor>
          </Alert>
          {summary.breakingCount > 0 && <NoticeForm draft={draft} />}
        </>
      )}
    </Stack>
  );
}

/** "Discard draft", after a confirmation: the draft and its preview go, the published version stays. */
function DiscardDraft({
  draft,
  disabled,
  onDiscarded,
}: {
  draft: ApiDraft;
  disabled: boolean;
  onDiscarded: (d: ApiDraft) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const discard = useMutation({
    mutationFn: () => discardDraft(draft.alias, draft.id),
    onSuccess: async () => {
      setOpen(false);
      onDiscarded(draft);
      await queryClient.invalidateQueries({ queryKey: ['console-apis'] });
    },
  });
  const names = { version: draft.toVersion ?? '', title: draft.title };
  return (
    <>
      <Button
        // Dark red on white: AA contrast (axe).
        color="red.9"
        variant="outline"
        disabled={disabled}
        onClick={() => {
          discard.reset();
          setOpen(true);
        }}
      >
        {t('console.apis.discard')}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('console.apis.discardConfirmTitle')}
        centered
      >
        <Text mb="md">{t('console.apis.discardConfirm', names)}</Text>
        {discard.isError && (
          <Alert color="red" role="alert" mb="md">
            {messageOf(discard.error, t('errors.somethingWentWrong'))}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t('console.apis.discardCancel')}
          </Button>
          <Button color="red.9" loading={discard.isPending} onClick={() => discard.mutate()}>
            {t('console.apis.discard')}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

function NoticeForm({ draft }: { draft: ApiDraft }) {
  const { t } = useTranslation();
  const audience = useQuery({
    queryKey: ['console-apis', 'audience', draft.id],
    queryFn: () => fetchAudience(draft.alias, draft.id),
  });
  const [text, setText] = useState(() =>
    t('console.apis.noticeDefault', {
      version: draft.toVersion ?? '',
      title: draft.title,
      endpoints: [...draft.summary.removed, ...draft.summary.changed.filter((op) => op.breaking)]
        .map((op) => op.endpoint)
        .join(', '),
    }),
  );
  const send = useMutation({ mutationFn: () => sendNotice(draft.alias, draft.id, text) });
  const reach = audience.data;
  return (
    <Stack
      component="form"
      gap="sm"
      maw={720}
      aria-labelledby="notice-title"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <Title order={3} size="h4" id="notice-title">
        {t('console.apis.notifyTitle')}
      </Title>
      {audience.isError && (
        <Alert color="red">{messageOf(audience.error, t('errors.somethingWentWrong'))}</Alert>
      )}
      {reach && (
        <Text data-testid="notice-audience">
          {reach.applications > 0
            ? t('console.apis.audience', {
                applications: reach.applications,
                organizations: reach.organizations,
              })
            : t('console.apis.audienceNone')}
        </Text>
      )}
      {send.data ? (
        <Alert color="green" role="status" data-testid="notice-sent">
          {t('console.apis.noticeSent', {
            recipients: send.data.recipients,
            organizations: send.data.organizations,
          })}
        </Alert>
      ) : (
        <>
          <Textarea
            label={t('console.apis.noticeLabel')}
            description={t('console.apis.noticeHelp')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={4}
            required
          />
          {send.isError && (
            <Alert color="red" role="alert">
              {messageOf(send.error, t('errors.somethingWentWrong'))}
            </Alert>
          )}
          <Group>
            <Button
              type="submit"
              loading={send.isPending}
              disabled={!text.trim() || !reach || reach.applications === 0}
            >
              {t('console.apis.sendNotice')}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
