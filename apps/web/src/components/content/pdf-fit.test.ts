import { describe, expect, it } from 'vitest';
import { fitImage } from './pdf-fit';

describe('fitImage', () => {
  it('scales large images into 450x450 keeping the aspect ratio, and leaves small ones', () => {
    expect(fitImage(1200, 500)).toEqual({ width: 450, height: 187.5 });
    expect(fitImage(500, 1000)).toEqual({ width: 225, height: 450 });
    expect(fitImage(100, 80)).toEqual({ width: 100, height: 80 });
    expect(fitImage(0, 10)).toEqual({ width: 0, height: 0 });
  });
});

describe('ddmmyyyy', () => {
  it('formats ISO dates as DD-MM-YYYY', async () => {
    const { ddmmyyyy } = await import('./date');
    expect(ddmmyyyy('2026-03-04T10:00:00.000Z')).toBe('04-03-2026');
    expect(ddmmyyyy('')).toBe('');
    expect(ddmmyyyy('soon')).toBe('soon');
  });
});
