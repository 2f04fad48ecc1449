import {
  Alert,
  Anchor,
  Group,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  TICKET_ENVIRONMENTS,
  TICKET_SEVERITIES,
  TICKET_STATUSES,
} from '@portico/contracts/support-constants';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { useUser } from '../../lib/store';
import { ConsolePage } from '../console/console-layout';
import { fetchContactMessages, fetchQueue, QUEUE_PAGE_SIZE, ticketKeys } from './api';

const when = (iso: string) => formatDateTime(iso);

/** /admin/support: the console's queue of every ticket, and the contact messages (support agents). */
export default function AdminSupportPage() {
  const { t } = useTranslation();
  return (
    <ConsolePage roles="support_agent" title={t('support.queueTitle')}>
      <SupportQueue />
    </ConsolePage>
  );
}

function SupportQueue() {
  const { t } = useTranslation();
  // Administrators manage who else is staff (admin-staff-page.tsx).
  const { isAdmin } = useUser();
  return (
    <>
      {isAdmin && (
        <Group justify="flex-end">
          <Anchor component={Link} to={paths.adminSupportStaff}>
            {t('support.staffLink')}
          </Anchor>
        </Group>
      )}
      <Tabs defaultValue="tickets" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="tickets">{t('support.ticketsTitle')}</Tabs.Tab>
          <Tabs.Tab value="contact">{t('support.contactMessagesTitle')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tickets">
          <Queue />
        </Tabs.Panel>
        <Tabs.Panel value="contact">
          <ContactMessages />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function Queue() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState({ status: 'OPEN', severity: '', environment: '' });
  const [page, setPage] = useState(0);
  const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v));
  const query = useQuery({
    queryKey: ticketKeys.queue(active, page),
    queryFn: () => fetchQueue(active, page),
    placeholderData: keepPreviousData,
  });
  const set = (key: keyof typeof filters) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(0);
  };
  const pages = Math.max(1, Math.ceil((query.data?.meta.count ?? 0) / QUEUE_PAGE_SIZE));
  return (
    <Stack>
      <Group>
        <NativeSelect
          label={t('support.status')}
          value={filters.status}
          onChange={set('status')}
          data={[
            { value: '', label: t('support.allStatuses') },
            ...TICKET_STATUSES.map((v) => ({ value: v, label: v })),
          ]}
        />
        <NativeSelect
          label={t('support.severity')}
          value={filters.severity}
          onChange={set('severity')}
          data={[
            { value: '', label: t('support.allSeverities') },
            ...TICKET_SEVERITIES.map((v) => ({ value: v, label: v })),
          ]}
        />
        <NativeSelect
          label={t('support.environment')}
          value={filters.environment}
          onChange={set('environment')}
          data={[
            { value: '', label: t('support.allEnvironments') },
            ...TICKET_ENVIRONMENTS.map((v) => ({ value: v, label: v })),
          ]}
        />
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('support.loadFailed'))}
        </Alert>
      ) : query.data.data.length === 0 ? (
        <Text>{t('support.noQueue')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('support.ticketName')}</Table.Th>
                <Table.Th>{t('support.status')}</Table.Th>
                <Table.Th>{t('support.severity')}</Table.Th>
                <Table.Th>{t('support.environment')}</Table.Th>
                <Table.Th>{t('support.reporter')}</Table.Th>
                <Table.Th>{t('support.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.data.map((ticket) => (
                <Table.Tr key={ticket.nid}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.supportTicket(ticket.nid)}>
                      {ticket.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{ticket.status}</Table.Td>
                  <Table.Td>{ticket.severity}</Table.Td>
                  <Table.Td>{ticket.environment}</Table.Td>
                  <Table.Td>
                    {ticket.reported_by.name}
                    {ticket.reported_by.mail ? ` <${ticket.reported_by.mail}>` : ''}
                  </Table.Td>
                  <Table.Td>{when(ticket.changed)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="center" component="nav" aria-label={t('support.queueTitle')}>
          <Pagination total={pages} value={page + 1} onChange={(p) => setPage(p - 1)} />
        </Group>
      )}
    </Stack>
  );
}

function ContactMessages() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const query = useQuery({
    queryKey: ticketKeys.contactMessages(page),
    queryFn: () => fetchContactMessages(page),
    placeholderData: keepPreviousData,
  });
  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {messageOf(query.error, t('support.loadFailed'))}
      </Alert>
    );
  if (!query.data.data.length) return <Text>{t('support.noContactMessages')}</Text>;
  const pages = Math.max(1, Math.ceil(query.data.meta.count / QUEUE_PAGE_SIZE));
  return (
    <Stack>
      {query.data.data.map((m) => (
        <Stack key={m.uuid} gap={4} component="article" aria-label={m.subject}>
          <Title order={3} size="h5">
            {m.subject}
          </Title>
          <Text size="sm">
            {t('support.from')}: {m.name} &lt;
            <Anchor href={`mailto:${m.mail}`}>{m.mail}</Anchor>&gt; · {t('support.received')}:{' '}
            {when(m.created)}
          </Text>
          <Text style={{ whiteSpace: 'pre-wrap' }}>{m.message}</Text>
        </Stack>
      ))}
      {pages > 1 && (
        <Group justify="center" component="nav" aria-label={t('support.contactMessagesTitle')}>
          <Pagination total={pages} value={page + 1} onChange={(p) => setPage(p - 1)} />
        </Group>
      )}
    </Stack>
  );
}
