import { PDF_IMAGE_MAX } from '@portico/contracts/constants';

/** Scales an image to fit the PDF's image box (450x450, spec B 9), never enlarging it. */
export function fitImage(
  width: number,
  height: number,
  max: { width: number; height: number } = PDF_IMAGE_MAX,
): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: 0, height: 0 };
  const scale = Math.min(1, max.width / width, max.height / height);
  return { width: width * scale, height: height * scale };
}
