import { createContext, useContext } from 'react';
import type { DocumentationSource } from '../api-documentation';

/**
 * The reference's source of answers (a published documentation, or a draft in the console's
 * preview), given once by ApiReference to every row and detail below it.
 */
export const ReferenceSource = createContext<DocumentationSource | null>(null);

export function useReferenceSource(): DocumentationSource {
  const source = useContext(ReferenceSource);
  if (!source) throw new Error('useReferenceSource: outside ApiReference');
  return source;
}
