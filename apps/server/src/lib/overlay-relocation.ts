/**
 * The overlay's translations where their English is now (decision 064, amended 2026-12-05): an
 * edit of the default-language document may move its texts (steps reordered, a footer column
 * inserted before the others), and a pointer then names another text than the one translated.
 * `sources` holds each pointer's English when it was translated; `current` the document's leaves
 * now (pointer to English). In order:
 *
 * 1. a translation whose pointer still has its English stays;
 * 2. one whose English is now elsewhere follows it (the first such leaf no translation holds);
 * 3. one whose English is nowhere (edited in place, or its item deleted) stays at its pointer if
 *    no other translation came there and the text there is new (not an English that moved away);
 *    otherwise it is dropped, and that leaf shows the default language.
 *
 * A translation without a source (written before sources were kept) stays where it is.
 */
export function relocateOverlay(
  overlay: Readonly<Record<string, string>>,
  sources: Readonly<Record<string, string>> | undefined,
  current: ReadonlyMap<string, string>,
): Record<string, string> {
  if (!sources) return { ...overlay };
  const out: Record<string, string> = {};
  const taken = new Set<string>();
  const pending: [string, string, string][] = [];
  for (const [pointer, text] of Object.entries(overlay)) {
    const source = sources[pointer];
    if (source === undefined) {
      out[pointer] = text;
      taken.add(pointer);
    } else if (current.get(pointer) === source) {
      out[pointer] = text;
      taken.add(pointer);
    } else pending.push([pointer, text, source]);
  }
  const byText = new Map<string, string[]>();
  for (const [pointer, english] of current) byText.set(english, [...(byText.get(english) ?? []), pointer]);
  const unplaced: [string, string][] = [];
  for (const [pointer, text, source] of pending) {
    const to = byText.get(source)?.find((p) => !taken.has(p));
    if (to === undefined) unplaced.push([pointer, text]);
    else {
      out[to] = text;
      taken.add(to);
    }
  }
  const translatedFrom = new Set(Object.values(sources));
  for (const [pointer, text] of unplaced) {
    const english = current.get(pointer);
    if (english === undefined || taken.has(pointer) || translatedFrom.has(english)) continue;
    out[pointer] = text;
    taken.add(pointer);
  }
  return out;
}
