import { Alert, Badge, Button, Group, Pagination, Select, Table, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { ConsolePage } from './console-layout';
import { formatDateTime } from '../../lib/text';
import { ContentTabs } from './editing';
import type { ListQuery } from './versioned-api';

const PAGE = 20;

/** The colours of the content's states, the same for every kind of item. */
export const STATE_COLORS: Record<'draft' | 'published' | 'scheduled', string> = {
  draft: 'gray',
  published: 'green',
  scheduled: 'blue',
};

/** An item's state as a badge. */
export function StateBadge({ state, label }: { state: keyof typeof STATE_COLORS; label: string }) {
  return (
    <Badge color={STATE_COLORS[state]} variant="light">
      {label}
    </Badge>
  );
}

/** A list row's state: its badge and, for a scheduled one, when it goes live. */
export function StateCell({
  state,
  label,
  publishAt,
  scheduledFor,
}: {
  state: keyof typeof STATE_COLORS;
  label: string;
  publishAt?: string | null;
  scheduledFor(date: string): string;
}) {
  return (
    <>
      <StateBadge state={state} label={label} />
      {state === 'scheduled' && publishAt && <Text size="xs">{scheduledFor(formatDateTime(publishAt))}</Text>}
    </>
  );
}

export interface ListTexts<S extends string> {
  title: string;
  intro: string;
  searchLabel: string;
  stateFilter: string;
  allStates: string;
  newItem: string;
  loadFailed: string;
  empty: string;
  stateLabel(state: S): string;
}

export interface ListColumn<R> {
  header: string;
  cell(row: R): ReactNode;
}

/**
 * A kind of versioned item's list in the content area: searched by text, filtered by state, a
 * page of 20 at a time, with the link to a new item.
 */
export function VersionedListPage<R extends { id: string }, S extends string>({
  queryKey,
  list,
  states,
  texts,
  newPath,
  columns,
  testId,
}: {
  queryKey: string;
  list(query: ListQuery): Promise<{ data: R[]; meta: { count: number } }>;
  states: readonly S[];
  texts: ListTexts<S>;
  newPath: string;
  columns: ListColumn<R>[];
  testId: string;
}) {
  const [state, setState] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: [queryKey, state, search, page],
    queryFn: () => list({ state: state ?? undefined, q: search, limit: PAGE, offset: (page - 1) * PAGE }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / PAGE));
  return (
    <ConsolePage roles="content_editor" title={texts.title}>
      <ContentTabs />
      <Text mb="md">{texts.intro}</Text>
      <Group align="flex-end" mb="md">
        <TextInput
          label={texts.searchLabel}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label={texts.stateFilter}
          placeholder={texts.allStates}
          clearable
          value={state}
          onChange={(v) => {
            setState(v);
            setPage(1);
          }}
          data={states.map((s) => ({ value: s, label: texts.stateLabel(s) }))}
        />
        <Button component={Link} to={newPath} ml="auto">
          {texts.newItem}
        </Button>
      </Group>
      {query.isError ? (
        <Alert color="red" role="alert">
          {texts.loadFailed}
        </Alert>
      ) : !query.data ? (
        <Loading />
      ) : query.data.data.length === 0 ? (
        <Text>{texts.empty}</Text>
      ) : (
        <>
          <Table data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.header}>{c.header}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.data.map((row) => (
                <Table.Tr key={row.id}>
                  {columns.map((c) => (
                    <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages > 1 && <Pagination mt="md" total={pages} value={page} onChange={setPage} />}
        </>
      )}
    </ConsolePage>
  );
}
