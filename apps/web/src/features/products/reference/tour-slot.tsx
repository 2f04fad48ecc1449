/**
 * Where the Quick Start tour's 'Take the tour' button goes, beside the operation search (spec B
 * 2.12: shown when tour data exists for the documentation). The tour feature fills it in; until
 * then it renders nothing.
 */
export function TourSlot(_props: { documentationAlias: string }) {
  return null;
}
