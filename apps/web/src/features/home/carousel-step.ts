import { CAROUSEL_STEP_OFFSET_PX, CAROUSEL_STEP_SHARE } from '@portico/contracts/constants';

/**
 * The home carousel's step (spec B 9): 21.5% of (window width - 50) pixels, never negative. Each
 * slide is one step wide and the strip moves one step per slide.
 */
export function carouselStepWidth(windowWidth: number): number {
  return Math.max(0, CAROUSEL_STEP_SHARE * (windowWidth - CAROUSEL_STEP_OFFSET_PX));
}
