import { sql, type Kysely } from 'kysely';

/**
 * The support area (issue 14, spec B 2.9, 3): contact messages, the ALTCHA challenges already
 * used (replay protection shared by every instance), support tickets with their message thread,
 * and the provider accounts that are support staff (administrators are staff without a row).
 * Column types for Kysely: modules/support/tables.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('support_staff')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // A solved challenge is recorded by its nonce until it expires; a second use is refused.
  await db.schema
    .createTable('captcha_used')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_used_expires').on('captcha_used').column('expires_at').execute();

  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('contact_form', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mail', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ip', 'text')
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('contact_messages_created').on('contact_messages').column('created').execute();

  await db.schema
    .createTable('support_tickets')
    // The nid of spec B 3 and 7.
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('contact_info', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('Test', 'Production')`))
    .addColumn('severity', 'text', (c) =>
      c.notNull().check(sql`severity in ('Critical', 'High', 'Medium', 'Low')`),
    )
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('OPEN'))
    .addColumn('reporter_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('support_tickets_reporter')
    .on('support_tickets')
    .column('reporter_id')
    .execute();
  await db.schema.createIndex('support_tickets_changed').on('support_tickets').column('changed').execute();

  await db.schema
    .createTable('support_ticket_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) =>
      c
        .notNull()
        .unique()
        .defaultTo(sql`gen_random_uuid()`),
    )
    .addColumn('ticket_id', 'integer', (c) =>
      c.notNull().references('support_tickets.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // Sanitized HTML.
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('support_ticket_messages_ticket')
    .on('support_ticket_messages')
    .columns(['ticket_id', 'id'])
    .execute();
}
