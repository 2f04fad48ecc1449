/**
 * Whether an Accept header prefers Markdown to HTML (RFC 9110 12.5.1): the quality each gets from
 * its most specific matching range (`text/markdown`, else `text/*`, else `*\/*`), Markdown only when
 * strictly higher. A browser's `text/html,…,*\/*;q=0.8` keeps the page; `text/markdown` alone, or
 * `text/markdown, text/html;q=0.5`, gets the Markdown.
 */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (!accept || !/markdown/i.test(accept)) return false;
  const ranges = accept.split(',').map((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    let q = 1;
    for (const param of params) {
      const m = /^q=([0-9.]+)$/.exec(param);
      if (m) q = Math.min(1, Number(m[1]) || 0);
    }
    return { range, q };
  });
  const quality = (type: string): number => {
    const [major] = type.split('/');
    const exact = ranges.find((r) => r.range === type);
    if (exact) return exact.q;
    const group = ranges.find((r) => r.range === `${major}/*`);
    if (group) return group.q;
    return ranges.find((r) => r.range === '*/*')?.q ?? 0;
  };
  const markdown = quality('text/markdown');
  return markdown > 0 && markdown > quality('text/html');
}
