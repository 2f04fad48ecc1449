import type { Kysely } from 'kysely';
import { trackDataChanges } from '../data-versions.ts';

/**
 * Change counters for the caches of signed-in requests (decision 028, db/data-versions.ts):
 * - `sessions`: a session started, ended (logout, password change or reset, an administrator
 *   blocking the user) or changed; the periodic touch of `last_seen_at` does not count;
 * - `identity`: the users (their names, e-mail, administrator role, verification, password);
 * - `organizations`, `applications`, `content`, `forum`: the tables their modules' lists read, for
 *   the per-user answer cache (plugins/http-cache.ts `cacheAnswers`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await trackDataChanges(db, 'sessions', ['sessions'], {
    updateOf: ['id', 'user_id', 'csrf_token', 'id_token', 'expires_at', 'created_at'],
  });
  await trackDataChanges(db, 'identity', ['users']);
  await trackDataChanges(db, 'organizations', [
    'organizations',
    'organization_roles',
    'memberships',
    'files',
  ]);
  await trackDataChanges(db, 'applications', [
    'applications',
    'subscriptions',
    'go_live_requests',
    'oauth_clients',
    'oauth_client_scopes',
  ]);
  await trackDataChanges(db, 'content', [
    'news_categories',
    'article_authors',
    'articles',
    'faq_categories',
    'faqs',
  ]);
  await trackDataChanges(db, 'forum', ['forums', 'forum_topics', 'forum_comments', 'forum_subscriptions']);
}
