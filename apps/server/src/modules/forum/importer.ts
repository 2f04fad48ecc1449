import { Marked } from 'marked';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ContentImporter } from '../../content/content-importer.ts';
import type { Db } from '../../db/client.ts';
import { forumHtml, insertComment, insertTopic, subjectFrom, type ForumRow } from './service.ts';
import { forumDb } from './tables.ts';

/**
 * Demo forums from content/forum/forums.yaml (format in README.md). Forums are upserted by their
 * key (the provider's own structure); topics and comments are created once by key and never
 * touched again, so moderation and replies by real users survive every restart.
 */
const markdown = new Marked({ gfm: true });

const commentSchema = z.object({
  key: z.string().min(1),
  author: z.email(),
  created: z.coerce.date(),
  subject: z.string().optional(),
  body: z.string().min(1),
  /** The key of the comment of the same topic this one replies to. */
  replyTo: z.string().optional(),
});

const fileSchema = z.object({
  forums: z.array(
    z.object({
      key: z.string().min(1),
      name: z.string().min(1),
      description: z.string().default(''),
      weight: z.number().int().default(0),
      container: z.boolean().default(false),
      parent: z.string().optional(),
    }),
  ),
  topics: z.array(
    z.object({
      key: z.string().min(1),
      forum: z.string().min(1),
      author: z.email(),
      created: z.coerce.date(),
      title: z.string().min(1),
      body: z.string().min(1),
      sticky: z.boolean().default(false),
      comments: z.array(commentSchema).default([]),
    }),
  ),
});

export type ForumContent = z.infer<typeof fileSchema>;

export function parseForumContent(text: string): ForumContent {
  const data = fileSchema.parse(parse(text));
  const forumKeys = new Set(data.forums.map((f) => f.key));
  for (const f of data.forums) {
    if (f.parent && !forumKeys.has(f.parent)) throw new Error(`forum ${f.key}: unknown parent ${f.parent}`);
  }
  for (const t of data.topics) {
    const forum = data.forums.find((f) => f.key === t.forum);
    if (!forum) throw new Error(`topic ${t.key}: unknown forum ${t.forum}`);
    if (forum.container) throw new Error(`topic ${t.key}: ${t.forum} is a container`);
    const keys = new Set<string>();
    for (const c of t.comments) {
      if (c.replyTo && !keys.has(c.replyTo))
        throw new Error(`comment ${c.key}: replyTo ${c.replyTo} must come earlier`);
      keys.add(c.key);
    }
  }
  return data;
}

// The demo posts stand beside users' posts: the same rules as theirs.
const render = (md: string) => forumHtml(markdown.parse(md, { async: false }));

export async function importForumContent(db: Db, content: ForumContent): Promise<void> {
  await forumDb(db)
    .transaction()
    .execute(async (trx) => {
      const users = new Map<string, number>();
      const userId = async (email: string) => {
        if (!users.has(email)) {
          const u = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
          if (!u) throw new Error(`forum content: no account ${email} (content/users.yaml)`);
          users.set(email, u.id);
        }
        return users.get(email)!;
      };
      const forums = new Map<string, ForumRow>();
      for (const f of content.forums) {
        const parentId = f.parent ? forums.get(f.parent)!.id : null;
        const row = await trx
          .insertInto('forums')
          .values({
            source_key: f.key,
            name: f.name,
            description: f.description,
            weight: f.weight,
            container: f.container,
            parent_id: parentId,
          })
          .onConflict((oc) =>
            oc.column('source_key').doUpdateSet({
              name: f.name,
              description: f.description,
              weight: f.weight,
              container: f.container,
              parent_id: parentId,
            }),
          )
          .returning(['id', 'uuid', 'name', 'description', 'weight', 'container', 'parent_id', 'changed'])
          .executeTakeFirstOrThrow();
        forums.set(f.key, row);
      }
      for (const t of content.topics) {
        const existing = await trx
          .selectFrom('forum_topics')
          .select('id')
          .where('source_key', '=', `topic:${t.key}`)
          .executeTakeFirst();
        let topicId = existing?.id;
        if (!topicId) {
          const created = await insertTopic(trx, {
            forum: forums.get(t.forum)!,
            title: t.title,
            bodyHtml: render(t.body),
            authorId: await userId(t.author),
            created: t.created,
            sourceKey: `topic:${t.key}`,
          });
          topicId = created.id;
          if (t.sticky)
            await trx.updateTable('forum_topics').set({ sticky: true }).where('id', '=', topicId).execute();
        }
        const commentIds = new Map<string, number>();
        for (const c of t.comments) {
          const key = `comment:${t.key}:${c.key}`;
          const found = await trx
            .selectFrom('forum_comments')
            .select('id')
            .where('source_key', '=', key)
            .executeTakeFirst();
          if (found) {
            commentIds.set(c.key, found.id);
            continue;
          }
          const body = render(c.body);
          const created = await insertComment(trx, {
            topicId,
            parentId: c.replyTo ? (commentIds.get(c.replyTo) ?? null) : null,
            subject: c.subject ?? subjectFrom(body),
            bodyHtml: body,
            authorId: await userId(c.author),
            created: c.created,
            sourceKey: key,
          });
          commentIds.set(c.key, created.id);
        }
      }
    });
}

export const forumImporter: ContentImporter = {
  name: 'forum',
  async run({ db, read }) {
    const text = read('forum/forums.yaml');
    if (!text) return;
    await importForumContent(db, parseForumContent(text));
  },
};
