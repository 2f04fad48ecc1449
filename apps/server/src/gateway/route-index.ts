/**
 * The routes of a document that can match a path, in their order of precedence, without trying
 * every route's regex: a path's regex only matches paths with as many slashes as its template's
 * literal parts (parameters never match '/'), or one more (the optional trailing slash), and, when
 * the template's first segment is literal, only paths whose first segment is that text. V8
 * compiles a regex on its first use: trying all of them cost the first call of a document with
 * 8,000 operations 50 ms; a path now tries the few routes of its bucket. Routes are added one at a
 * time (the router of a big document is built a slice at a time) and a bucket is put in order of
 * precedence when first used.
 */
export interface IndexedRoute {
  /** The path part of the template (before a pseudo-fragment), '/' when empty. */
  pathPart: string;
  /** The template's parameters. */
  names: readonly string[];
  /** The template's length without its parameters. */
  literalLength: number;
}

interface Entry<R> {
  seq: number;
  route: R;
}

class RouteList<R extends IndexedRoute> {
  readonly entries: Entry<R>[] = [];
  private sorted = true;

  add(entry: Entry<R>) {
    this.entries.push(entry);
    this.sorted = false;
  }

  inOrder(): Entry<R>[] {
    if (!this.sorted) {
      this.entries.sort(precedes);
      this.sorted = true;
    }
    return this.entries;
  }
}

/**
 * Literal paths win over templated ones ('/accounts/me' before '/accounts/{id}'): fewer
 * parameters first, then longer literal text, then the document's order.
 */
function precedes(a: Entry<IndexedRoute>, b: Entry<IndexedRoute>): number {
  return (
    a.route.names.length - b.route.names.length ||
    b.route.literalLength - a.route.literalLength ||
    a.seq - b.seq
  );
}

interface Bucket<R extends IndexedRoute> {
  byFirstSegment: Map<string, RouteList<R>>;
  other: RouteList<R>;
}

const literalSlashes = (pathPart: string) => pathPart.replace(/\{[^}]+\}/g, '').split('/').length - 1;

/** The first segment of a path: between its leading '/' and the next one; undefined without '/'. */
function firstSegment(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

export class RouteIndex<R extends IndexedRoute> {
  private readonly buckets = new Map<number, Bucket<R>>();
  private seq = 0;

  add(route: R): void {
    const entry = { seq: this.seq++, route };
    const slashes = literalSlashes(route.pathPart);
    const first = firstSegment(route.pathPart);
    for (const count of [slashes, slashes + 1]) {
      let bucket = this.buckets.get(count);
      if (!bucket) this.buckets.set(count, (bucket = { byFirstSegment: new Map(), other: new RouteList() }));
      if (first === undefined || first.includes('{')) {
        bucket.other.add(entry);
        continue;
      }
      let list = bucket.byFirstSegment.get(first);
      if (!list) bucket.byFirstSegment.set(first, (list = new RouteList()));
      list.add(entry);
    }
  }

  /** The routes that may match a path, in order of precedence (the others cannot). */
  *candidates(path: string): Generator<R> {
    const bucket = this.buckets.get(path.split('/').length - 1);
    if (!bucket) return;
    const first = firstSegment(path);
    const literal = (first !== undefined && bucket.byFirstSegment.get(first)?.inOrder()) || [];
    const other = bucket.other.inOrder();
    // Two lists in order of precedence, merged.
    let i = 0;
    let j = 0;
    while (i < literal.length || j < other.length) {
      if (j >= other.length || (i < literal.length && precedes(literal[i]!, other[j]!) < 0))
        yield literal[i++]!.route;
      else yield other[j++]!.route;
    }
  }
}
