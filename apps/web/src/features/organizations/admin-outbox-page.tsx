import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { Link, useParams, useSearchParams } from 'react-router';
import { ORG_DEFAULT_PAGE_SIZE } from '@portico/contracts/constants';
import { NotFound } from '../../components/not-found';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { ApiError, messageOf } from '../../lib/api-client';
import { ConsolePage } from '../console/console-layout';
import { getOutboxMessage, listOutbox, type OutboxMessage } from './api';

/**
 * /admin/outbox and /admin/outbox/:messageId: the e-mails the portal sent or stored (invitations,
 * password resets), for the provider administrator. Without SMTP_URL this is where invitations
 * can be read. Others see UNAUTHORIZED; the server refuses them too (403).
 */
export default function AdminOutboxPage() {
  const { t } = useTranslation();
  const { messageId } = useParams();
  return (
    <ConsolePage roles="administrator" title={t('organizations.outboxTitle')}>
      {messageId ? <OutboxMessageView id={messageId} /> : <OutboxList />}
    </ConsolePage>
  );
}

const when = (iso: string) => formatDateTime(iso);

function StatusBadge({ status }: { status: OutboxMessage['attributes']['status'] }) {
  const { t } = useTranslation();
  const label =
    status === 'sent'
      ? t('organizations.outboxStatusSent')
      : status === 'failed'
        ? t('organizations.outboxStatusFailed')
        : t('organizations.outboxStatusStored');
  return (
    <Badge color={status === 'sent' ? 'green' : status === 'failed' ? 'red' : 'gray'} variant="light">
      {label}
    </Badge>
  );
}

function OutboxList() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? '0') || 0);
  const query = useQuery({
    queryKey: ['admin-outbox', page],
    queryFn: () => listOutbox(page, ORG_DEFAULT_PAGE_SIZE),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const count = query.data?.meta?.count ?? 0;
  const pages = Math.max(1, Math.ceil(count / ORG_DEFAULT_PAGE_SIZE));
  const go = (p: number) => setParams(p ? { page: String(p) } : {});

  return (
    <>
      <Text mb="md">{t('organizations.outboxIntro')}</Text>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : query.data.data.length === 0 ? (
        <Text>{t('organizations.outboxEmpty')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('organizations.columnDate')}</Table.Th>
                  <Table.Th>{t('organizations.columnTo')}</Table.Th>
                  <Table.Th>{t('organizations.columnSubject')}</Table.Th>
                  <Table.Th>{t('organizations.columnStatus')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.data.data.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{when(m.attributes.created)}</Table.Td>
                    <Table.Td>{m.attributes.to}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.adminOutboxMessage(m.id)}>
                        {m.attributes.subject}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={m.attributes.status} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="center" mt="md" component="nav" aria-label={t('organizations.outboxTitle')}>
            <Button variant="default" disabled={!query.data.links?.prev} onClick={() => go(page - 1)}>
              {t('organizations.previousPage')}
            </Button>
            <Text size="sm">{t('organizations.pageOf', { page: page + 1, pages })}</Text>
            <Button variant="default" disabled={!query.data.links?.next} onClick={() => go(page + 1)}>
              {t('organizations.nextPage')}
            </Button>
          </Group>
        </>
      )}
    </>
  );
}

function OutboxMessageView({ id }: { id: string }) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ['admin-outbox', 'message', id], queryFn: () => getOutboxMessage(id) });
  if (query.isPending) return <Loading />;
  if (query.error instanceof ApiError && query.error.status === 404) return <NotFound />;
  return (
    <>
      <Anchor component={Link} to={paths.adminOutbox} mb="md" display="inline-block">
        {t('organizations.outboxBack')}
      </Anchor>
      {query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('organizations.somethingWentWrong'))}
        </Alert>
      ) : (
        <Paper withBorder p="lg">
          <Stack gap="xs">
            <Title order={2}>{query.data.attributes.subject}</Title>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {t('organizations.columnTo')}:
              </Text>
              <Text size="sm">{query.data.attributes.to}</Text>
            </Group>
            <Group gap="xs">
              <Text size="sm" fw={600}>
                {t('organizations.columnDate')}:
              </Text>
              <Text size="sm">{when(query.data.attributes.created)}</Text>
              <StatusBadge status={query.data.attributes.status} />
            </Group>
            {query.data.attributes.error && (
              <Alert color="red">
                {t('organizations.outboxError', { error: query.data.attributes.error })}
              </Alert>
            )}
            <Text component="pre" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
              {query.data.attributes.text}
            </Text>
          </Stack>
        </Paper>
      )}
    </>
  );
}
