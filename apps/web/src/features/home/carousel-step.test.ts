import { describe, expect, it } from 'vitest';
import { carouselStepWidth } from './carousel-step';

describe('carousel step width', () => {
  it('is 21.5% of (window width - 50)', () => {
    expect(carouselStepWidth(1280)).toBeCloseTo(264.45, 6);
    expect(carouselStepWidth(1920)).toBeCloseTo(402.05, 6);
    expect(carouselStepWidth(375)).toBeCloseTo(69.875, 6);
    expect(carouselStepWidth(50)).toBe(0);
  });

  it('is never negative', () => {
    expect(carouselStepWidth(0)).toBe(0);
    expect(carouselStepWidth(20)).toBe(0);
  });
});
