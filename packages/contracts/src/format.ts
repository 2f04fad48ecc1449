/**
 * Fills the `{{name}}` placeholders of a catalogue message (messages.ts) with values: used by the
 * web app's lookup (apps/web/src/lib/i18n.ts) and by the server for the texts it sends. For a
 * message of the catalogue the compiler checks that every placeholder is given. A placeholder
 * without a value stays as it is; values are inserted literally (no `$&` patterns, no second pass).
 */

/** The placeholder names of a message: `Placeholders<'Hello {{name}}'>` is `'name'`. */
export type Placeholders<T extends string> = T extends `${string}{{${infer Name}}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** The values a message needs; any names for a message whose text is only known as `string`. */
export type FormatValues<T extends string> = string extends T
  ? Record<string, string | number>
  : [Placeholders<T>] extends [never]
    ? Record<string, never>
    : Record<Placeholders<T>, string | number>;

export function format<T extends string>(template: T, values: FormatValues<T>): string {
  const given: Record<string, string | number> = values;
  return template.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) =>
    Object.hasOwn(given, name) ? String(given[name]) : placeholder,
  );
}
