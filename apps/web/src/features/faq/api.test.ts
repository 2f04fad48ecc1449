import { describe, expect, it } from 'vitest';
import { faqParams, sections } from './api';

describe('FAQs', () => {
  it('searches the question or the answer', () => {
    const p = faqParams(' token ');
    expect(p['filter[search][group][conjunction]']).toBe('OR');
    expect(p['filter[question][condition][value]']).toBe('token');
    expect(p['filter[answer][condition][path]']).toBe('field_answer.value');
    expect(faqParams('')).toEqual({ include: 'field_category' });
  });

  it('puts the uncategorised questions after the categories', () => {
    const faq = (id: string, category: string | null) => ({
      id,
      attributes: { title: id, field_answer: { processed: `<p>${id}</p>` } },
      relationships: { field_category: { data: category ? { id: category } : null } },
    });
    const result = sections({
      data: [faq('loose', null), faq('b1', 'b'), faq('a1', 'a')],
      included: [
        { id: 'b', type: 'taxonomy_term--faq_categories', attributes: { name: 'B', weight: 1 } },
        { id: 'a', type: 'taxonomy_term--faq_categories', attributes: { name: 'A', weight: 0 } },
      ],
    });
    expect(result.map((s) => [s.category?.name ?? null, s.faqs.map((f) => f.uuid)])).toEqual([
      ['A', ['a1']],
      ['B', ['b1']],
      [null, ['loose']],
    ]);
  });
});
