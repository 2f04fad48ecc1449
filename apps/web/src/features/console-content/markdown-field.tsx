import { Paper, Tabs, Textarea } from '@mantine/core';
import { Markdown } from '../../components/ui/markdown';
import { ImagePicker } from './image-picker';

/**
 * A Markdown text of the console's editors: Insert image above it (image-picker.tsx), a tab to
 * write it and one to preview it.
 */
export function MarkdownField({
  label,
  value,
  onChange,
  onUseAsImage,
  minRows,
  required,
  tabs,
  previewTestId,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Offers "Use as the main image" (articles and pages). */
  onUseAsImage?(imageUrl: string, imageAlt: string): void;
  minRows: number;
  required?: boolean;
  tabs: { write: string; preview: string };
  previewTestId: string;
}) {
  return (
    <>
      <ImagePicker body={value} onBodyChange={onChange} bodyLabel={label} onUseAsImage={onUseAsImage} />
      <Tabs defaultValue="write">
        <Tabs.List>
          <Tabs.Tab value="write">{tabs.write}</Tabs.Tab>
          <Tabs.Tab value="preview">{tabs.preview}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write" pt="xs">
          <Textarea
            label={label}
            required={required}
            autosize
            minRows={minRows}
            styles={{ input: { fontFamily: 'monospace' } }}
            value={value}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="xs">
          <Paper withBorder p="md" data-testid={previewTestId}>
            <Markdown text={value} />
          </Paper>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
