import { Badge, Code, Group, Text } from '@mantine/core';
import type { JsonSchema } from '@portico/contracts/catalog';
import { useState, type ReactNode } from 'react';
import { useTranslation, type Translate } from '../../../lib/i18n';
import { Markdown } from '../../../components/ui/markdown';
import classes from './reference.module.css';
import {
  asObject,
  constraints,
  formatValue,
  refName,
  refOf,
  schemaExamples,
  typeLabel,
  type SchemaObject,
} from './schema-model';

type Refs = Record<string, JsonSchema>;

/**
 * A JSON schema as a nested tree: properties with required marks, array items, additional
 * properties, oneOf / anyOf / allOf alternatives, enums, defaults, constraints and examples.
 * Nested levels open on demand (and render only then), so a huge schema costs nothing until read.
 * A `$ref` met again on its own path is a circular reference and is not followed.
 */
export function SchemaTree({ schema, refs }: { schema: JsonSchema | null; refs: Refs }) {
  return (
    <ul className={classes.schemaTree} data-testid="schema-tree">
      <SchemaNode schema={schema} refs={refs} depth={0} ancestors={[]} root />
    </ul>
  );
}

interface NodeProps {
  schema: JsonSchema | null | undefined;
  refs: Refs;
  depth: number;
  ancestors: string[];
  name?: string;
  required?: boolean;
  root?: boolean;
}

const MAX_DEPTH = 40;
/** Levels shown open at first; deeper ones open on demand (and render only then). */
const OPEN_DEPTH = 3;

function SchemaNode({ schema, refs, depth, ancestors, name, required, root }: NodeProps) {
  const { t } = useTranslation();
  let obj = asObject(schema);
  let path = ancestors;
  let label = typeLabel(schema ?? null);
  const ref = refOf(obj);
  if (ref) {
    if (ancestors.includes(ref) || depth > MAX_DEPTH) {
      return (
        <li className={classes.schemaNode}>
          <NodeHeader name={name} required={required} type={refName(ref)} />
          <Text size="xs" c="dimmed" fs="italic">
            {t('products.circular')}
          </Text>
        </li>
      );
    }
    const target = asObject(refs[ref]);
    if (target) {
      obj = target;
      path = [...ancestors, ref];
      const inner = typeLabel(target);
      label = inner === 'object' || inner === 'any' ? refName(ref) : `${refName(ref)}: ${inner}`;
    }
  }

  const children = obj ? childGroups(obj, refs, depth, path, t) : [];
  return (
    <li className={classes.schemaNode}>
      {!root || name ? (
        <NodeHeader name={name} required={required} type={label} schema={obj} />
      ) : (
        <Text size="sm" ff="monospace" c="dimmed">
          {label}
        </Text>
      )}
      {obj && <NodeFacts schema={obj} />}
      {children.length > 0 &&
        (root ? (
          <ul className={classes.schemaTree}>{children}</ul>
        ) : (
          <Expandable summary={t('products.showSchema')} initiallyOpen={depth < OPEN_DEPTH}>
            <ul className={classes.schemaTree}>{children}</ul>
          </Expandable>
        ))}
    </li>
  );
}

function NodeHeader({
  name,
  required,
  type,
  schema,
}: {
  name?: string;
  required?: boolean;
  type: string;
  schema?: SchemaObject | null;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap" className={classes.schemaHeader}>
      {name && (
        <Text span ff="monospace" fw={600} size="sm" td={schema?.deprecated ? 'line-through' : undefined}>
          {name}
        </Text>
      )}
      <Text span ff="monospace" size="sm" c="blue.8">
        {type}
      </Text>
      {required && (
        <Text span size="xs" c="red.8" fw={600}>
          {t('products.required')}
        </Text>
      )}
      {schema?.deprecated === true && (
        <Badge size="xs" color="orange" variant="light">
          {t('products.deprecatedOperation')}
        </Badge>
      )}
      {schema?.readOnly === true && (
        <Badge size="xs" variant="outline">
          read-only
        </Badge>
      )}
      {schema?.writeOnly === true && (
        <Badge size="xs" variant="outline">
          write-only
        </Badge>
      )}
    </Group>
  );
}

function NodeFacts({ schema }: { schema: SchemaObject }) {
  const { t } = useTranslation();
  const description = typeof schema.description === 'string' ? schema.description : null;
  const values = Array.isArray(schema.enum)
    ? (schema.enum as unknown[])
    : 'const' in schema
      ? [schema.const]
      : [];
  const limits = constraints(schema);
  const examples = schemaExamples(schema);
  return (
    <>
      {description && <Markdown text={description} fz="sm" />}
      {values.length > 0 && (
        <Group gap={4} mt={2}>
          <Text span size="xs" c="dimmed">
            {t('products.enumValues')}:
          </Text>
          {values.map((v, i) => (
            <Code key={i}>{formatValue(v)}</Code>
          ))}
        </Group>
      )}
      {'default' in schema && (
        <Text size="xs" c="dimmed" mt={2}>
          {t('products.defaultValue')}: <Code>{formatValue(schema.default)}</Code>
        </Text>
      )}
      {limits.length > 0 && (
        <Text size="xs" c="dimmed" mt={2}>
          {limits.join(' · ')}
        </Text>
      )}
      {examples.length > 0 && (
        <Text size="xs" c="dimmed" mt={2}>
          {t('products.example')}:{' '}
          {examples.map((e, i) => (
            <Code key={i} mr={4}>
              {formatValue(e)}
            </Code>
          ))}
        </Text>
      )}
    </>
  );
}

/** A native disclosure whose content is created only once it is opened. */
function Expandable({
  summary,
  initiallyOpen,
  children,
}: {
  summary: string;
  initiallyOpen: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const hideLabel = t('products.hideSchema');
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details className={classes.expandable} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{open ? hideLabel : summary}</summary>
      {open && children}
    </details>
  );
}

function childGroups(
  schema: SchemaObject,
  refs: Refs,
  depth: number,
  ancestors: string[],
  t: Translate,
): ReactNode[] {
  const out: ReactNode[] = [];
  const next = depth + 1;
  const properties = asObject(schema.properties as JsonSchema | undefined);
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (properties) {
    for (const [key, value] of Object.entries(properties)) {
      out.push(
        <SchemaNode
          key={`p:${key}`}
          name={key}
          required={required.includes(key)}
          schema={value as JsonSchema}
          refs={refs}
          depth={next}
          ancestors={ancestors}
        />,
      );
    }
  }
  const items = schema.items as JsonSchema | undefined;
  if (items !== undefined) {
    // An array of objects reads best as the object's fields right under the array.
    const itemObj = asObject(items);
    const itemRef = refOf(itemObj);
    const target = itemRef ? (ancestors.includes(itemRef) ? null : asObject(refs[itemRef])) : itemObj;
    if (target && (target.properties || target.oneOf || target.anyOf || target.allOf)) {
      out.push(...childGroups(target, refs, depth, itemRef ? [...ancestors, itemRef] : ancestors, t));
    } else if (hasStructure(items, refs)) {
      out.push(
        <SchemaNode
          key="items"
          name={t('products.itemsOf')}
          schema={items}
          refs={refs}
          depth={next}
          ancestors={ancestors}
        />,
      );
    }
  }
  const additional = schema.additionalProperties as JsonSchema | undefined;
  if (additional !== undefined && additional !== false && typeof additional === 'object') {
    out.push(
      <SchemaNode
        key="additional"
        name={t('products.additionalProperties')}
        schema={additional}
        refs={refs}
        depth={next}
        ancestors={ancestors}
      />,
    );
  }
  for (const [keyword, labelKey] of [
    ['oneOf', 'products.oneOf'],
    ['anyOf', 'products.anyOf'],
    ['allOf', 'products.allOf'],
  ] as const) {
    const options = schema[keyword];
    if (!Array.isArray(options) || options.length === 0) continue;
    out.push(
      <li key={keyword} className={classes.schemaNode} data-composition={keyword}>
        <Text size="sm" fw={600} c="grape.8">
          {t(labelKey)}
        </Text>
        <ul className={classes.schemaTree}>
          {(options as JsonSchema[]).map((option, i) => {
            const o = asObject(option);
            const ref = refOf(o);
            const title = typeof o?.title === 'string' ? o.title : ref ? refName(ref) : `#${i + 1}`;
            return (
              <SchemaNode
                key={i}
                name={title}
                schema={option}
                refs={refs}
                depth={next}
                ancestors={ancestors}
              />
            );
          })}
        </ul>
      </li>,
    );
  }
  if (schema.not !== undefined && typeof schema.not === 'object') {
    out.push(
      <SchemaNode
        key="not"
        name={t('products.not')}
        schema={schema.not as JsonSchema}
        refs={refs}
        depth={next}
        ancestors={ancestors}
      />,
    );
  }
  return out;
}

/** Array items deserve their own node when there is more to them than a type. */
function hasStructure(schema: JsonSchema, refs: Refs): boolean {
  const obj = asObject(schema);
  if (!obj) return false;
  const ref = refOf(obj);
  if (ref) return asObject(refs[ref]) !== null;
  return Boolean(
    obj.properties || obj.items || obj.oneOf || obj.anyOf || obj.allOf || obj.enum || obj.description,
  );
}
