import type { TranslationMarker } from '../../components/content/translation';
/**
 * The few JSON:API shapes the catalog pages read (apps/server/src/modules/catalog/README.md), and
 * a lookup of included resources by type and id.
 */
export interface Identifier {
  type: string;
  id: string;
  meta?: { alt?: string };
}

export interface Resource<A> {
  type: string;
  id: string;
  attributes: A;
  relationships?: Record<string, { data: Identifier | Identifier[] | null }>;
  links?: Record<string, { href: string }>;
  /** The language of its texts, on translatable kinds (decision 063). */
  meta?: { translation?: TranslationMarker };
}

export interface Document<T> {
  data: T;
  included?: Resource<Record<string, unknown>>[];
  links?: Record<string, { href: string }>;
  meta?: { count?: number };
}

export interface Html {
  value: string;
  processed: string;
  format?: string;
}

/** Included resources by `type:id`. */
export class Included {
  private readonly byKey = new Map<string, Resource<Record<string, unknown>>>();

  constructor(included: Resource<Record<string, unknown>>[] | undefined) {
    for (const r of included ?? []) this.byKey.set(`${r.type}:${r.id}`, r);
  }

  get<A>(ref: Identifier | null | undefined): Resource<A> | undefined {
    if (!ref) return undefined;
    return this.byKey.get(`${ref.type}:${ref.id}`) as Resource<A> | undefined;
  }

  /** The resources a relationship points at, in order, skipping those not included. */
  many<A>(resource: Resource<unknown>, field: string): Resource<A>[] {
    const data = resource.relationships?.[field]?.data;
    const refs = Array.isArray(data) ? data : data ? [data] : [];
    return refs.map((ref) => this.get<A>(ref)).filter((r): r is Resource<A> => r !== undefined);
  }

  one<A>(resource: Resource<unknown>, field: string): Resource<A> | undefined {
    return this.many<A>(resource, field)[0];
  }

  /** The url of an included file behind a to-one relationship, with the relationship's alt text. */
  image(resource: Resource<unknown>, field: string): { url: string; alt: string } | null {
    const ref = resource.relationships?.[field]?.data;
    if (!ref || Array.isArray(ref)) return null;
    const file = this.get<{ url?: string; uri?: { url?: string } }>(ref);
    const url = file?.attributes.url ?? file?.attributes.uri?.url;
    return url ? { url, alt: ref.meta?.alt ?? '' } : null;
  }
}

/** The ids a relationship points at. */
export function relatedIds(resource: Resource<unknown>, field: string): string[] {
  const data = resource.relationships?.[field]?.data;
  const refs = Array.isArray(data) ? data : data ? [data] : [];
  return refs.map((r) => r.id);
}
