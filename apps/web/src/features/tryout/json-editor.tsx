import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

export interface JsonEditorProps {
  value: string;
  onChange?: (value: string) => void;
  /** The accessible name of the editor (its textbox). */
  label: string;
  readOnly?: boolean;
  invalid?: boolean;
  testId?: string;
  /** The id of an element describing the editor (its errors). */
  describedBy?: string;
}

/** A CodeMirror 6 JSON editor (highlighting, brackets, undo), or a read-only highlighted viewer. */
export function JsonEditor({
  value,
  onChange,
  label,
  readOnly,
  invalid,
  testId,
  describedBy,
}: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const attributes: Record<string, string> = { 'aria-label': label, 'aria-multiline': 'true' };
    if (describedBy) attributes['aria-describedby'] = describedBy;
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          json(),
          EditorView.lineWrapping,
          EditorState.readOnly.of(Boolean(readOnly)),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of(attributes),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current?.(u.state.doc.toString());
          }),
          EditorView.theme({
            '&': { fontSize: '13px', maxHeight: readOnly ? '420px' : '320px' },
            '.cm-scroller': { overflow: 'auto' },
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [readOnly, label]);

  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <div
      ref={host}
      data-testid={testId}
      style={{
        border: `1px solid ${invalid ? 'var(--mantine-color-red-7)' : 'var(--mantine-color-gray-4)'}`,
        borderRadius: 4,
      }}
    />
  );
}
