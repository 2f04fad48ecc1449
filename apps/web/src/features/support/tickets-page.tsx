import { Alert, Anchor, Button, Container, Group, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { RequireLogin } from '../../components/require-login';
import { Loading } from '../../components/ui/loading';
import { PageBreadcrumbs } from '../../components/ui/page-breadcrumbs';
import { PageTitle } from '../../components/ui/page-title';
import { paths } from '../../config/paths';
import { messageOf } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';
import { fetchTickets, ticketKeys } from './api';

/** /support/ticket/all (spec B 2.9): the signed-in user's tickets. */
export default function TicketsPage() {
  return (
    <RequireLogin>
      <Tickets />
    </RequireLogin>
  );
}

function Tickets() {
  const { t } = useTranslation();
  const query = useQuery({ queryKey: ticketKeys.list(), queryFn: fetchTickets });
  return (
    <Container size="lg" py="xl">
      <PageBreadcrumbs
        items={[{ title: t('support.title'), to: paths.support }, { title: t('support.ticketsTitle') }]}
      />
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('support.ticketsTitle')}</PageTitle>
        <Button component={Link} to={paths.supportTicketCreate}>
          {t('support.createTicket')}
        </Button>
      </Group>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <Alert color="red" role="alert">
          {messageOf(query.error, t('support.loadFailed'))}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text>{t('support.noTickets')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('support.ticketName')}</Table.Th>
                <Table.Th>{t('support.status')}</Table.Th>
                <Table.Th>{t('support.severity')}</Table.Th>
                <Table.Th>{t('support.environment')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.map((ticket) => (
                <Table.Tr key={ticket.nid}>
                  <Table.Td>
                    <Anchor component={Link} to={paths.supportTicket(ticket.nid)}>
                      {ticket.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{ticket.status}</Table.Td>
                  <Table.Td>{ticket.severity}</Table.Td>
                  <Table.Td>{ticket.environment}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Container>
  );
}
