/**
 * How the audit log's actions read (issue 27). Nested by the action's dotted name, so that
 * `auditActionLabel('membership.invited')` and the web's `t('console.audit.actions.membership.invited')`
 * find the same words. Shared by the console's audit page and the organization page's activity.
 * An action not listed here (a newer module's) is shown as its name.
 */
export const auditActionLabels = {
  sign_in: { failures_over_threshold: 'Sign-in failures over the threshold' },
  application: {
    created: 'Application created',
    deleted: 'Application deleted',
    secret_reset: 'Client secret reset',
    secret_deleted: 'Client secret deleted',
    token_security_changed: 'Token security changed',
    client_authentication_changed: 'Client authentication method changed',
    secret_rotated: 'Client secret rotated',
    secret_revoked: 'Client secret revoked',
    psd2_certificate_changed: 'PSD2 certificate of the application changed',
  },
  certificate: { issued: 'Sandbox certificate issued', revoked: 'Sandbox certificate revoked' },
  subscription: { added: 'Subscribed to a product', removed: 'Unsubscribed from a product' },
  membership: {
    invited: 'Member invited',
    accepted: 'Invitation accepted',
    removed: 'Member removed',
    roles_changed: 'Member roles changed',
  },
  go_live: {
    requested: 'Go-live requested',
    approved: 'Go-live approved',
    rejected: 'Go-live rejected',
  },
  organization: { created: 'Organization created', deleted: 'Organization deleted' },
  user: {
    blocked: 'Account blocked',
    unblocked: 'Account unblocked',
    roles_changed: 'Provider roles changed',
  },
  api: {
    draft_uploaded: 'API version uploaded as a draft',
    draft_discarded: 'API draft discarded',
    published: 'API version published',
    notice_sent: 'Breaking-change notice sent',
  },
  product: {
    created: 'API product created',
    updated: 'API product edited',
    deprecated: 'API product deprecated',
    retired: 'API product retired',
    reordered: 'API product moved in the catalog',
    deleted: 'API product deleted',
  },
  changelog: {
    created: 'Changelog entry added',
    updated: 'Changelog entry changed',
    restored: 'Changelog entry restored',
    deleted: 'Changelog entry deleted',
  },
  comparison_table: {
    created: 'Comparison table created',
    updated: 'Comparison table changed',
    deleted: 'Comparison table deleted',
  },
  documentation: { plan_updated: 'API plan changed' },
  article: { created: 'Article created', published: 'Article published', deleted: 'Article deleted' },
  site_content: {
    updated: 'Site texts saved',
    restored: 'Site texts restored',
    draft_saved: 'Site texts draft saved',
    scheduled: 'Site texts scheduled',
    published: 'Site texts published',
    draft_discarded: 'Site texts draft discarded',
  },
  page: {
    created: 'Page created',
    updated: 'Page updated',
    published: 'Page published',
    restored: 'Page revision restored',
    deleted: 'Page deleted',
  },
  faq: {
    created: 'FAQ question created',
    updated: 'FAQ question changed',
    published: 'FAQ question published',
    deleted: 'FAQ question deleted',
    restored: 'FAQ question restored',
    reordered: 'FAQ questions reordered',
  },
  quickstart_story: {
    created: 'Quick Start story created',
    updated: 'Quick Start story changed',
    published: 'Quick Start story published',
    restored: 'Quick Start story restored',
    deleted: 'Quick Start story deleted',
  },
  faq_category: {
    created: 'FAQ category created',
    renamed: 'FAQ category renamed',
    updated: 'FAQ category changed',
    reordered: 'FAQ categories reordered',
    restored: 'FAQ category restored',
    deleted: 'FAQ category deleted',
  },
  news_category: {
    created: 'News category created',
    renamed: 'News category renamed',
    updated: 'News category changed',
    reordered: 'News categories reordered',
    restored: 'News category restored',
    deleted: 'News category deleted',
  },
  image: { uploaded: 'Image uploaded', deleted: 'Image deleted' },
} as const;

/** The words for `action`, or the action itself when it has none. */
export function auditActionLabel(action: string): string {
  let node: unknown = auditActionLabels;
  for (const part of action.split('.')) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, part)) return action;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : action;
}

/** Every action that has words, in the order above: the console's action filter offers these first. */
export const KNOWN_AUDIT_ACTIONS: readonly string[] = Object.entries(auditActionLabels).flatMap(
  ([area, verbs]) => Object.keys(verbs).map((verb) => `${area}.${verb}`),
);

/** The target types the portal records, for the console's target filter (others may follow). */
export const KNOWN_AUDIT_TARGET_TYPES: readonly string[] = [
  'address',
  'api',
  'application',
  'article',
  'certificate',
  'email',
  'membership',
  'organization',
  'quickstart_story',
  'site_content',
  'user',
];
