import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { readerLanguage, type TranslationMarker } from '../../components/content/translation';

/** GET /jsonapi/node/faq?include=field_category (spec B 7), with the optional title or answer search. */

interface FaqDocument {
  data: {
    id: string;
    attributes: { title: string; field_answer: { processed: string } };
    relationships: { field_category: { data: { id: string } | null } };
    meta?: { translation?: TranslationMarker };
  }[];
  included?: {
    id: string;
    type: string;
    attributes: { name: string; weight: number };
    meta?: { translation?: TranslationMarker };
  }[];
}

export interface Faq {
  uuid: string;
  question: string;
  answer: string;
  categoryId: string | null;
  /** The language of its texts (decision 063). */
  translation: TranslationMarker | null;
}

export interface FaqSection {
  /** null: the questions of no category, after the categories (spec B 2.5). */
  category: { uuid: string; name: string; translation?: TranslationMarker } | null;
  faqs: Faq[];
}

export function faqParams(search: string): Record<string, string> {
  const params: Record<string, string> = { include: 'field_category', ...readerLanguage() };
  const q = search.trim();
  if (q) {
    params['filter[search][group][conjunction]'] = 'OR';
    params['filter[question][condition][path]'] = 'title';
    params['filter[question][condition][operator]'] = 'CONTAINS';
    params['filter[question][condition][value]'] = q;
    params['filter[question][condition][memberOf]'] = 'search';
    params['filter[answer][condition][path]'] = 'field_answer.value';
    params['filter[answer][condition][operator]'] = 'CONTAINS';
    params['filter[answer][condition][value]'] = q;
    params['filter[answer][condition][memberOf]'] = 'search';
  }
  return params;
}

/** Groups FAQs by category in category order; the uncategorised ones last. */
export function sections(doc: FaqDocument): FaqSection[] {
  const categories = [...(doc.included ?? [])]
    .filter((c) => c.type === 'taxonomy_term--faq_categories')
    .sort((a, b) => a.attributes.weight - b.attributes.weight);
  const faqs: Faq[] = doc.data.map((f) => ({
    uuid: f.id,
    question: f.attributes.title,
    answer: f.attributes.field_answer.processed,
    categoryId: f.relationships.field_category.data?.id ?? null,
    translation: f.meta?.translation ?? null,
  }));
  const out: FaqSection[] = categories.map((c) => ({
    category: {
      uuid: c.id,
      name: c.attributes.name,
      ...(c.meta?.translation ? { translation: c.meta.translation } : {}),
    },
    faqs: faqs.filter((f) => f.categoryId === c.id),
  }));
  const rest = faqs.filter((f) => f.categoryId === null || !categories.some((c) => c.id === f.categoryId));
  if (rest.length) out.push({ category: null, faqs: rest });
  return out.filter((s) => s.faqs.length > 0);
}

export function useFaqs(search: string) {
  return useQuery({
    queryKey: ['faqs', search.trim()],
    queryFn: async () =>
      sections(await apiRequest<FaqDocument>('/jsonapi/node/faq', { query: faqParams(search) })),
    placeholderData: keepPreviousData,
  });
}
