import '@mantine/tiptap/styles.css';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef } from 'react';

export interface RichTextFieldProps {
  /** Accessible name of the editable area. */
  label: string;
  /** Initial HTML; later changes come from the editor itself. */
  initialValue: string;
  onChange(html: string): void;
  onBlur(): void;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

/**
 * The rich-text editor of the application description (spec A 5) and the forum posts (spec B 2.13): Tiptap's starter kit with Mantine's toolbar,
 * limited to what the server keeps after sanitizing (paragraphs, headings, lists, links, code,
 * quotes). Its own chunk: the application form loads it on demand.
 */
export default function RichTextField({
  label,
  initialValue,
  onChange,
  onBlur,
  disabled,
  invalid,
  describedBy,
}: RichTextFieldProps) {
  // The editor keeps the callbacks it was created with: hand it stable ones that call the latest.
  const handlers = useRef({ onChange, onBlur });
  useEffect(() => {
    handlers.current = { onChange, onBlur };
  });
  const editor = useEditor({
    extensions: [
      // Mantine's Link (Mod+K opens its link editor) replaces the kit's own.
      StarterKit.configure({ link: false, heading: { levels: [2, 3, 4] }, horizontalRule: false }),
      Link,
    ],
    content: initialValue,
    editable: !disabled,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': label,
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      },
    },
    onUpdate: ({ editor: e }) => handlers.current.onChange(e.isEmpty ? '' : e.getHTML()),
    onBlur: () => handlers.current.onBlur(),
  });

  return (
    <RichTextEditor
      editor={editor}
      style={invalid ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <RichTextEditor.Toolbar>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
          <RichTextEditor.Strikethrough />
          <RichTextEditor.Code />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.H4 />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
          <RichTextEditor.Blockquote />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content />
    </RichTextEditor>
  );
}
