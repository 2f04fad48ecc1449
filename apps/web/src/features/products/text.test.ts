import { describe, expect, it } from 'vitest';
import {
  aliasSlug,
  cutText,
  cutTitleWords,
  formatDate,
  htmlToText,
  isUuid,
  stripVersionSuffix,
} from './text';

describe('product text helpers', () => {
  it('tells uuids from aliases', () => {
    expect(isUuid('3d06cacd-9a36-4326-ac68-fe45f8af53f5')).toBe(true);
    expect(isUuid('accounts-v1')).toBe(false);
    expect(isUuid('3d06cacd-9a36-4326-ac68-fe45f8af53f5x')).toBe(false);
  });

  it('strips the version suffix of related product aliases', () => {
    expect(stripVersionSuffix('/payments-api-v2')).toBe('payments-api');
    expect(stripVersionSuffix('/fx-rates-api-v2.1')).toBe('fx-rates-api');
    expect(stripVersionSuffix('/get-token-api')).toBe('get-token-api');
    expect(aliasSlug('/accounts-api-v1')).toBe('accounts-api-v1');
  });

  it('formats dates as DD-MM-YYYY', () => {
    expect(formatDate('2026-01-15')).toBe('15-01-2026');
    expect(formatDate('2026-01-15T10:00:00Z')).toBe('15-01-2026');
    expect(formatDate(null)).toBe('');
    expect(formatDate('soon')).toBe('soon');
  });

  it('cuts card texts and long title words', () => {
    expect(cutText('short', 100)).toBe('short');
    const cut = cutText('a'.repeat(30) + ' ' + 'b'.repeat(30), 50);
    expect(cut.length).toBeLessThanOrEqual(51);
    expect(cut.endsWith('…')).toBe(true);
    expect(cutTitleWords('Supercalifragilisticexpialidocious API')).toBe('Supercalifragilis… API');
  });

  it('reads the text of HTML without markup', () => {
    expect(htmlToText('<p>Give &amp; take</p><script>alert(1)</script>')).toBe('Give & take');
  });
});
