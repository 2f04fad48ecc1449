import { describe, expect, it } from 'vitest';
import { constraints, refName, schemaExamples, typeLabel } from './schema-model';

describe('schema display model', () => {
  it('labels types, formats, arrays, unions and references', () => {
    expect(typeLabel({ type: 'string', format: 'date' })).toBe('string (date)');
    expect(typeLabel({ type: ['string', 'null'] })).toBe('string | null');
    expect(typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Transaction' } })).toBe(
      'array<Transaction>',
    );
    expect(typeLabel({ properties: { a: { type: 'string' } } })).toBe('object');
    expect(typeLabel({ oneOf: [{ type: 'string' }] })).toBe('one of');
    expect(typeLabel(true)).toBe('any');
    expect(typeLabel(false)).toBe('never');
  });

  it('names references and lists constraints and examples', () => {
    expect(refName('#/components/schemas/a~1b')).toBe('a/b');
    expect(constraints({ maxLength: 35, pattern: '^[A-Z]{3}$', uniqueItems: true })).toEqual([
      'max length 35',
      'pattern ^[A-Z]{3}$',
      'unique items',
    ]);
    expect(schemaExamples({ examples: ['EUR'] })).toEqual(['EUR']);
    expect(schemaExamples({ example: 3 })).toEqual([3]);
    expect(schemaExamples({})).toEqual([]);
  });
});
