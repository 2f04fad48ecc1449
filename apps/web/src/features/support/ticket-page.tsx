import {
  Alert,
  Anchor,
  Badge,
  Button,
  CloseButton,
  Container,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { HtmlContent } from '../../components/ui/html-content';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { apiUrl, messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { formatDateTime } from '../../lib/text';
import { useUser } from '../../lib/store';
import { fetchTicket, replyToTicket, setTicketStatus, ticketKeys, type Ticket } from './api';
import classes from './support.module.css';

const when = (iso: string) => formatDateTime(iso);

/**
 * /support/ticket/:ticketId (spec B 2.9, 4): the created notice, the ticket, its thread (replies by
 * others styled as answers), the reply form while the ticket is not CLOSED, and the status button.
 */
export default function TicketPage() {
  return (
    <RequireLogin>
      <TicketView />
    </RequireLogin>
  );
}

function TicketView() {
  const { t } = useTranslation();
  const { ticketId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const query = useQuery({ queryKey: ticketKeys.one(ticketId), queryFn: () => fetchTicket(ticketId) });
  const created = search.get('created') === 'true';

  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <Container size="md" py="xl">
        <Alert color="red" role="alert">
          {messageOf(query.error, t('support.loadFailed'))}
        </Alert>
      </Container>
    );
  const ticket = query.data;
  return (
    <Container size="md" py="xl">
      <PageBreadcrumbs
        items={[
          { title: t('support.title'), to: paths.support },
          { title: t('support.ticketsTitle'), to: paths.supportTickets },
          { title: ticket.title },
        ]}
      />
      {created && (
        <Alert color="green" role="status" mb="md" data-testid="ticket-created">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text size="sm">{t('support.created')}</Text>
            <CloseButton
              aria-label={t('support.dismiss')}
              onClick={() => {
                search.delete('created');
                setSearch(search, { replace: true });
              }}
            />
          </Group>
        </Alert>
      )}
      <PageTitle>{ticket.title}</PageTitle>
      <TicketDetails ticket={ticket} />
      <Thread ticket={ticket} />
      <Actions ticket={ticket} id={ticketId} />
    </Container>
  );
}

function TicketDetails({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" mb="xl">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <div>
          <Text size="xs" fw={700}>
            {t('support.status')}
          </Text>
          <Badge color={ticket.status === 'CLOSED' ? 'gray' : 'green'} data-testid="ticket-status">
            {ticket.status}
          </Badge>
        </div>
        <div>
          <Text size="xs" fw={700}>
            {t('support.severity')}
          </Text>
          <Text>{ticket.severity}</Text>
        </div>
        <div>
          <Text size="xs" fw={700}>
            {t('support.environment')}
          </Text>
          <Text>{ticket.environment}</Text>
        </div>
      </SimpleGrid>
      <Text size="sm">
        {t('support.reportedBy', { name: ticket.reported_by.name })} · {when(ticket.created)} ·{' '}
        {t('support.contactInfo')}: {ticket.contact_info}
      </Text>
      <div>
        <Title order={2} size="h4">
          {t('support.description')}
        </Title>
        <HtmlContent html={ticket.description} />
      </div>
      <div>
        <Title order={2} size="h4">
          {t('support.details')}
        </Title>
        <HtmlContent html={ticket.details} />
      </div>
      {ticket.attachments && ticket.attachments.length > 0 && (
        <div>
          <Title order={2} size="h4">
            {t('support.attachments')}
          </Title>
          <List>
            {ticket.attachments.map((a) => (
              <List.Item key={a.uuid}>
                <Anchor href={apiUrl(a.url)} download={a.file_name}>
                  {a.file_name}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}

function Thread({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const user = useUser();
  if (!ticket.messages.length) return null;
  return (
    <section aria-label={t('support.thread')}>
      <Title order={2} size="h4" mb="sm">
        {t('support.thread')}
      </Title>
      <Stack gap="sm" mb="xl" component="ol" className={classes.thread}>
        {ticket.messages.map((m) => {
          const mine = m.uid !== null && m.uid === user.uid;
          return (
            <Paper
              key={m.uuid}
              component="li"
              withBorder
              p="md"
              className={mine ? classes.mine : classes.answer}
              data-answer={mine ? undefined : 'true'}
            >
              <Text size="xs" fw={700} mb={4}>
                {mine ? t('support.you') : t('support.answer', { name: m.author.name })} · {when(m.created)}
              </Text>
              <HtmlContent html={m.body} />
            </Paper>
          );
        })}
      </Stack>
    </section>
  );
}

function Actions({ ticket, id }: { ticket: Ticket; id: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const refresh = async (fresh: Ticket) => {
    queryClient.setQueryData(ticketKeys.one(id), (old: Ticket | undefined) => ({ ...old, ...fresh }));
    await queryClient.invalidateQueries({ queryKey: ticketKeys.all });
  };
  const status = useMutation({
    mutationFn: (next: string) => setTicketStatus(id, next),
    onSuccess: refresh,
  });
  const reply = useMutation({
    mutationFn: (text: string) => replyToTicket(id, text),
    onSuccess: async (fresh) => {
      setMessage('');
      setTouched(false);
      await refresh(fresh);
    },
  });
  const closed = ticket.status === 'CLOSED';

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!message.trim()) return;
    reply.mutate(message);
  }

  return (
    <Stack>
      {(status.error ?? reply.error) && (
        <Alert color="red" role="alert">
          {messageOf(status.error ?? reply.error, t('support.loadFailed'))}
        </Alert>
      )}
      {!closed && (
        <form onSubmit={submit} noValidate className={classes.form} aria-label={t('support.reply')}>
          <Stack>
            <Textarea
              label={t('support.replyLabel')}
              autosize
              minRows={4}
              value={message}
              required
              error={touched && !message.trim() ? t('support.required') : undefined}
              onChange={(e) => setMessage(e.currentTarget.value)}
            />
            <Group>
              <Button type="submit" loading={reply.isPending}>
                {t('support.sendReply')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Group>
        <Button
          variant="outline"
          color={closed ? undefined : 'gray'}
          loading={status.isPending}
          onClick={() => status.mutate(closed ? 'OPEN' : 'CLOSED')}
        >
          {closed ? t('support.reopen') : t('support.markClosed')}
        </Button>
      </Group>
    </Stack>
  );
}
