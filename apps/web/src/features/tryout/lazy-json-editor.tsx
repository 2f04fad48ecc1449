import { lazy, Suspense } from 'react';
import type { JsonEditorProps } from './json-editor';

/**
 * CodeMirror is most of the console's code and an operation without a body never needs it: the
 * editor is its own chunk, fetched when a body or a response is first shown (and prefetched once the
 * console is idle), so the console opens without waiting for it (bench/README.md, "The try-out
 * console"). Until it is there, the same text in a plain field: editable, labelled, described.
 */
const Editor = lazy(() => import('./json-editor').then((m) => ({ default: m.JsonEditor })));

export function preloadJsonEditor(): void {
  void import('./json-editor').catch(() => undefined);
}

export function JsonEditor(props: JsonEditorProps) {
  return (
    <Suspense fallback={<PlainJson {...props} />}>
      <Editor {...props} />
    </Suspense>
  );
}

function PlainJson({ value, onChange, label, readOnly, invalid, testId, describedBy }: JsonEditorProps) {
  const border = `1px solid ${invalid ? 'var(--mantine-color-red-7)' : 'var(--mantine-color-gray-4)'}`;
  const style = { border, borderRadius: 4, fontSize: 13, fontFamily: 'var(--mantine-font-family-monospace)' };
  if (readOnly) {
    return (
      <pre data-testid={testId} style={{ ...style, margin: 0, padding: 8, whiteSpace: 'pre-wrap' }}>
        {value}
      </pre>
    );
  }
  return (
    <textarea
      data-testid={testId}
      aria-label={label}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      value={value}
      onChange={(e) => onChange?.(e.currentTarget.value)}
      rows={8}
      spellCheck={false}
      style={{ ...style, width: '100%', padding: 8, resize: 'vertical' }}
    />
  );
}
