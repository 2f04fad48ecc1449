import '@mantine/charts/styles.css';
import { BarChart, LineChart } from '@mantine/charts';
import {
  Alert,
  Group,
  Loader,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { Application, DailyEndpointAggregate, EndpointAggregate } from '@portico/contracts/applications';
import { ANALYTICS_CHART_HEIGHTS_PX, ANALYTICS_DEFAULT_RANGE_MONTHS } from '@portico/contracts/constants';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { messageOf } from '../../lib/api-client';
import { fetchAggregates, fetchSumAggregates } from './api';

/** 'YYYY-MM-DD' of a date in UTC, the days the server counts in. */
function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Spec A 9: one month back to today. */
export function defaultRange(now = new Date()): { fromDate: string; toDate: string } {
  const from = new Date(now);
  from.setUTCMonth(from.getUTCMonth() - ANALYTICS_DEFAULT_RANGE_MONTHS);
  return { fromDate: isoDay(from), toDate: isoDay(now) };
}

/** Calls per day over every endpoint, for the 400 px chart. */
function perDay(rows: DailyEndpointAggregate[]) {
  const days = new Map<string, { date: string; successCalls: number; failedCalls: number }>();
  for (const r of rows) {
    const day = days.get(r.referenceDate) ?? { date: r.referenceDate, successCalls: 0, failedCalls: 0 };
    day.successCalls += r.successCalls;
    day.failedCalls += r.failedCalls;
    days.set(r.referenceDate, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * Analytics of a production application (spec A 2, 7, 9): a date range, the per-endpoint
 * statistics (sorted by average execution time, descending) as a table and a 600 px chart, and the
 * per-day calls as a 400 px chart and a table. Its own chunk with the chart library.
 */
export default function AnalyticsSection({ app }: { app: Application }) {
  const { t } = useTranslation();
  const [range, setRange] = useState(defaultRange);
  const application = app.clientId.production ?? app.uuid;
  const valid = Boolean(range.fromDate && range.toDate && range.fromDate <= range.toDate);
  const q = { application, ...range };
  const aggregates = useQuery({
    queryKey: ['app-analytics', 'aggregates', q],
    queryFn: () => fetchAggregates(q),
    enabled: valid,
  });
  const daily = useQuery({
    queryKey: ['app-analytics', 'sumAggregates', q],
    queryFn: () => fetchSumAggregates(q),
    enabled: valid,
  });
  const endpoints: EndpointAggregate[] = useMemo(
    () => [...(aggregates.data ?? [])].sort((a, b) => b.avgExecutionTime - a.avgExecutionTime),
    [aggregates.data],
  );
  const days = useMemo(() => perDay(daily.data ?? []), [daily.data]);
  const error = aggregates.error ?? daily.error;

  return (
    <Stack gap="md" mt="xl" component="section" aria-labelledby="app-analytics" data-testid="analytics">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={2} size="h3" id="app-analytics">
          {t('applications.ui.analytics')}
        </Title>
        <Group gap="sm" align="flex-end">
          <TextInput
            type="date"
            label={t('applications.ui.fromDate')}
            value={range.fromDate}
            max={range.toDate}
            onChange={(e) => setRange((r) => ({ ...r, fromDate: e.currentTarget.value }))}
          />
          <TextInput
            type="date"
            label={t('applications.ui.toDate')}
            value={range.toDate}
            min={range.fromDate}
            onChange={(e) => setRange((r) => ({ ...r, toDate: e.currentTarget.value }))}
          />
          {(aggregates.isFetching || daily.isFetching) && <Loader size="sm" />}
        </Group>
      </Group>
      {error ? (
        <Alert color="red" role="alert">
          {messageOf(error, t('errors.somethingWentWrong'))}
        </Alert>
      ) : aggregates.isSuccess && endpoints.length === 0 ? (
        <Text c="dimmed">{t('applications.ui.noCalls')}</Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table
              striped
              withTableBorder
              aria-label={t('applications.ui.analytics')}
              data-testid="analytics-table"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('applications.ui.endpoint')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.minExecutionTime')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.avgExecutionTime')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.maxExecutionTime')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.successCalls')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.failedCalls')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {endpoints.map((e) => (
                  <Table.Tr key={e.endpoint}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{e.endpoint}</Table.Td>
                    <Table.Td>{e.minExecutionTime}</Table.Td>
                    <Table.Td>{e.avgExecutionTime}</Table.Td>
                    <Table.Td>{e.maxExecutionTime}</Table.Td>
                    <Table.Td>{e.successCalls}</Table.Td>
                    <Table.Td>{e.failedCalls}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <SimpleGrid cols={1}>
            <Stack gap="xs">
              <Title order={3} size="h5">
                {t('applications.ui.executionTimes')}
              </Title>
              <BarChart
                h={ANALYTICS_CHART_HEIGHTS_PX.endpoints}
                data={endpoints}
                dataKey="endpoint"
                orientation="vertical"
                yAxisProps={{ width: 200 }}
                withLegend
                series={[
                  { name: 'minExecutionTime', label: t('applications.ui.minExecutionTime'), color: 'teal.6' },
                  { name: 'avgExecutionTime', label: t('applications.ui.avgExecutionTime'), color: 'blue.6' },
                  {
                    name: 'maxExecutionTime',
                    label: t('applications.ui.maxExecutionTime'),
                    color: 'orange.6',
                  },
                ]}
              />
            </Stack>
            <Stack gap="xs">
              <Title order={3} size="h5">
                {t('applications.ui.callsPerDay')}
              </Title>
              <LineChart
                h={ANALYTICS_CHART_HEIGHTS_PX.daily}
                data={days}
                dataKey="date"
                withLegend
                series={[
                  { name: 'successCalls', label: t('applications.ui.successCalls'), color: 'green.6' },
                  { name: 'failedCalls', label: t('applications.ui.failedCalls'), color: 'red.6' },
                ]}
              />
            </Stack>
          </SimpleGrid>
          <Title order={3} size="h5">
            {t('applications.ui.dailyTotals')}
          </Title>
          <ScrollArea.Autosize mah={400}>
            <Table
              withTableBorder
              fz="sm"
              aria-label={t('applications.ui.dailyTotals')}
              data-testid="analytics-daily"
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('applications.ui.date')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.endpoint')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.avgExecutionTime')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.successCalls')}</Table.Th>
                  <Table.Th scope="col">{t('applications.ui.failedCalls')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(daily.data ?? []).map((d) => (
                  <Table.Tr key={`${d.referenceDate} ${d.endpoint}`}>
                    <Table.Td>{d.referenceDate}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{d.endpoint}</Table.Td>
                    <Table.Td>{d.avgExecutionTime}</Table.Td>
                    <Table.Td>{d.successCalls}</Table.Td>
                    <Table.Td>{d.failedCalls}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </>
      )}
    </Stack>
  );
}
