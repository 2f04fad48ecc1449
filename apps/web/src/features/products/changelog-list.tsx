import { Badge, Group, Text, Timeline } from '@mantine/core';
import { HtmlContent } from '../../components/ui/html-content';
import type { ChangelogEntry } from './api-products';
import { formatDate } from './text';

/** Changelog entries (spec B 3): version, release date as DD-MM-YYYY and the notes (HTML). */
export function ChangelogList({ entries }: { entries: ChangelogEntry[] }) {
  return (
    <Timeline bulletSize={14} lineWidth={2} active={entries.length} data-testid="changelog">
      {entries.map((e) => (
        <Timeline.Item
          key={e.id}
          title={
            <Group gap="sm">
              {e.attributes.field_version && <Badge variant="light">{e.attributes.field_version}</Badge>}
              {e.attributes.field_release_date && (
                <Text size="sm" c="dimmed" component="time" dateTime={e.attributes.field_release_date}>
                  {formatDate(e.attributes.field_release_date)}
                </Text>
              )}
            </Group>
          }
        >
          {e.attributes.field_notes?.processed && (
            <HtmlContent html={e.attributes.field_notes.processed} fz="sm" />
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
