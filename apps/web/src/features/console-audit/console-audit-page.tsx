import {
  ActionIcon,
  Alert,
  Autocomplete,
  Button,
  Code,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import {
  auditActionLabel,
  KNOWN_AUDIT_ACTIONS,
  KNOWN_AUDIT_TARGET_TYPES,
} from '@portico/contracts/messages/audit-actions';
import { PROVIDER_ROLES } from '@portico/contracts/provider-roles';
import { IconChevronDown, IconChevronRight, IconDownload } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { messageOf } from '../../lib/api-client';
import { locale, localeTag, useTranslation } from '../../lib/i18n';
// Every section of the console is framed by its shell (features/console), its one shared part.
import { ConsolePage } from '../console/console-layout';
import {
  AUDIT_PAGE_SIZE,
  FILTER_NAMES,
  auditCsvUrl,
  listAudit,
  type AuditEntry,
  type AuditFilters,
} from './api';

const pad = (n: number) => String(n).padStart(2, '0');
/** An entry's time to the second, in the reader's time zone: YYYY-MM-DD HH:mm:ss in English, else Intl's. */
const when = (iso: string) => {
  const d = new Date(iso);
  if (locale !== 'en') return secondsFormat().format(d);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};
let seconds: Intl.DateTimeFormat | undefined;
const secondsFormat = () =>
  (seconds ??= new Intl.DateTimeFormat(localeTag, { dateStyle: 'medium', timeStyle: 'medium' }));

/**
 * /admin/audit: the audit log for every provider role (the server refuses everyone else too).
 * The filters live in the URL, so a filtered view can be shared and the back button works; the
 * CSV export takes the same filters.
 */
export default function ConsoleAuditPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles={PROVIDER_ROLES} title={t('console.audit.title')}>
      <AuditLog />
    </ConsolePage>
  );
}

function filtersOf(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

function AuditLog() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const page = Math.max(0, Number(params.get('page') ?? '0') || 0);
  const query = useQuery({
    queryKey: ['console-audit', filters, page],
    queryFn: () => listAudit(filters, page),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const apply = (next: AuditFilters) => {
    const search = new URLSearchParams();
    for (const name of FILTER_NAMES) if (next[name]?.trim()) search.set(name, next[name]!.trim());
    setParams(search);
  };
  const go = (p: number) => {
    const search = new URLSearchParams(params);
    if (p) search.set('page', String(p));
    else search.delete('page');
    setParams(search);
  };
  const count = query.data?.meta.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / AUDIT_PAGE_SIZE));
  const actions = [...new Set([...KNOWN_AUDIT_ACTIONS, ...(query.data?.meta.actions ?? [])])].sort();

  return (
    <Stack gap="md">
      <Text>{t('console.audit.intro')}</Text>
      <FilterForm key={params.toString()} initial={filters} actions={actions} onApply={apply} />
      <Group justify="space-between">
        <Text size="sm" aria-live="polite" data-testid="audit-count">
          {query.data ? t('console.audit.count', { count }) : ''}
        </Text>
        <Button
          component="a"
          href={auditCsvUrl(filters)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          {t('console.audit.exportCsv')}
        </Button>
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : query.data.data.length === 0 ? (
        <Text>{t('console.audit.empty')}</Text>
      ) : (
        <>
          <AuditTable entries={query.data.data} />
          <Group justify="center" component="nav" aria-label={t('console.audit.pages')}>
            <Button variant="default" disabled={!query.data.links.prev} onClick={() => go(page - 1)}>
              {t('console.audit.previousPage')}
            </Button>
            <Text size="sm">{t('console.audit.pageOf', { page: page + 1, pages })}</Text>
            <Button variant="default" disabled={!query.data.links.next} onClick={() => go(page + 1)}>
              {t('console.audit.nextPage')}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function FilterForm({
  initial,
  actions,
  onApply,
}: {
  initial: AuditFilters;
  actions: string[];
  onApply: (filters: AuditFilters) => void;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<AuditFilters>(initial);
  const set = (name: keyof AuditFilters) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(values);
  };
  return (
    <form onSubmit={submit} aria-label={t('console.audit.filters')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm">
        <NativeSelect
          label={t('console.audit.action')}
          value={values.action ?? ''}
          onChange={(e) => set('action')(e.currentTarget.value)}
          data={[
            { value: '', label: t('console.audit.anyAction') },
            ...actions.map((a) => ({ value: a, label: auditActionLabel(a) })),
          ]}
        />
        <TextInput
          label={t('console.audit.actor')}
          value={values.actor ?? ''}
          onChange={(e) => set('actor')(e.currentTarget.value)}
          maxLength={254}
        />
        <Autocomplete
          label={t('console.audit.targetType')}
          placeholder={t('console.audit.anyTargetType')}
          value={values.target_type ?? ''}
          onChange={set('target_type')}
          data={[...KNOWN_AUDIT_TARGET_TYPES]}
        />
        <TextInput
          type="date"
          label={t('console.audit.from')}
          value={values.from ?? ''}
          onChange={(e) => set('from')(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('console.audit.to')}
          value={values.to ?? ''}
          onChange={(e) => set('to')(e.currentTarget.value)}
        />
      </SimpleGrid>
      <Group mt="sm" gap="sm">
        <Button type="submit">{t('console.audit.apply')}</Button>
        <Button
          variant="subtle"
          onClick={() => {
            setValues({});
            onApply({});
          }}
        >
          {t('console.audit.reset')}
        </Button>
      </Group>
    </form>
  );
}

function Json({ label, value }: { label: string; value: unknown }) {
  const { t } = useTranslation();
  return (
    <div style={{ flex: 1, minWidth: 240 }}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      <Code block>
        {value === null || value === undefined ? t('console.audit.nothing') : JSON.stringify(value, null, 2)}
      </Code>
    </div>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((o) => {
      const next = new Set(o);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover data-testid="audit-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <VisuallyHidden>{t('console.audit.detailsColumn')}</VisuallyHidden>
            </Table.Th>
            <Table.Th>{t('console.audit.columnWhen')}</Table.Th>
            <Table.Th>{t('console.audit.columnWho')}</Table.Th>
            <Table.Th>{t('console.audit.columnAction')}</Table.Th>
            <Table.Th>{t('console.audit.columnTarget')}</Table.Th>
            <Table.Th>{t('console.audit.columnOrganization')}</Table.Th>
            <Table.Th>{t('console.audit.columnAddress')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((e) => {
            const a = e.attributes;
            const expanded = open.has(e.id);
            return (
              <Fragment key={e.id}>
                <Table.Tr data-testid="audit-row">
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      aria-expanded={expanded}
                      aria-controls={expanded ? `audit-details-${e.id}` : undefined}
                      aria-label={t(expanded ? 'console.audit.hideDetails' : 'console.audit.details', {
                        number: e.id,
                      })}
                      onClick={() => toggle(e.id)}
                    >
                      {expanded ? (
                        <IconChevronDown size={16} aria-hidden />
                      ) : (
                        <IconChevronRight size={16} aria-hidden />
                      )}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    <time dateTime={a.at}>{when(a.at)}</time>
                  </Table.Td>
                  <Table.Td>
                    {a.actor.email ?? (a.ip ? t('console.audit.anonymous') : t('console.audit.system'))}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{auditActionLabel(a.action)}</Text>
                    <Text size="xs" c="dimmed">
                      {a.action}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.targetLabel ?? a.targetId ?? ''}</Text>
                    <Text size="xs" c="dimmed">
                      {a.targetType}
                    </Text>
                  </Table.Td>
                  <Table.Td>{a.organization?.label ?? ''}</Table.Td>
                  <Table.Td>{a.ip ?? ''}</Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr id={`audit-details-${e.id}`}>
                    <Table.Td colSpan={7}>
                      <Group align="flex-start" wrap="wrap" gap="md">
                        <Json label={t('console.audit.before')} value={a.before} />
                        <Json label={t('console.audit.after')} value={a.after} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
