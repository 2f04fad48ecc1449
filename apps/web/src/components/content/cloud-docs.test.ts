import { describe, expect, it } from 'vitest';
import { driveErrorMessage, pdfLink } from './cloud-docs';

describe('cloud documents', () => {
  it("reads the first error message of the Drive API's answer", () => {
    expect(
      driveErrorMessage({
        error: { code: 404, message: 'outer', errors: [{ message: 'File not found: x.' }] },
      }),
    ).toBe('File not found: x.');
    expect(driveErrorMessage({ error: { code: 403, message: 'Forbidden' } })).toBe('Forbidden');
    expect(driveErrorMessage({ error: 'invalid_token' })).toBe('invalid_token');
    expect(driveErrorMessage('x')).toBeUndefined();
  });

  it('builds the PDF link by id', () => {
    expect(pdfLink('https://docs.google.com/document/d/{id}/export?format=pdf', 'a b')).toBe(
      'https://docs.google.com/document/d/a%20b/export?format=pdf',
    );
  });
});
