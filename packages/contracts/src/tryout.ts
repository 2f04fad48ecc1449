import { z } from 'zod';

/**
 * The try-out console (spec B 2.16, 3, 4, 5, 9): constants and the shape of a history item as the
 * browser store and the server's stored history (GET/PUT/DELETE /api/tryout/history) share it.
 */

/** History delete is soft: final after this delay unless cancelled. */
export const TRYOUT_DELETE_DELAY_MS = 2500;
/** Import and export messages vanish after this delay. */
export const TRYOUT_MESSAGE_MS = 3000;
/** Identical failing responses in a row that open 'Seems like you might need a hand'. */
export const TRYOUT_HELP_AFTER_FAILURES = 3;
/** The authorization popup: default size and how often the console checks that it is still open. */
export const TRYOUT_POPUP_SIZE = { width: 600, height: 640 } as const;
export const TRYOUT_POPUP_CHECK_MS = 50;
/** History items kept per user (browser and server); favorites are never dropped. */
export const TRYOUT_HISTORY_LIMIT = 200;
/** Longest stored response body of one history item, in characters (larger ones are cut). */
export const TRYOUT_RESPONSE_MAX_CHARS = 20_000;
/** Longest request body of one history item, in characters. */
export const TRYOUT_BODY_MAX_CHARS = 100_000;

const values = z.record(z.string().max(200), z.string().max(4000));

export const tryoutHistoryItemSchema = z.object({
  uuid: z.uuid(),
  documentationId: z.string().min(1).max(200),
  method: z.enum(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']),
  path: z.string().min(1).max(2000),
  description: z.string().max(2000),
  form: z.object({
    header: values,
    query: values,
    path: values,
    // Only for an operation with cookie parameters (issue 11): the spec's parts are the others.
    cookie: values.optional(),
    body: z.string().max(TRYOUT_BODY_MAX_CHARS),
  }),
  response: z.object({ status: z.number().int().min(0).max(999), data: z.unknown() }).nullable(),
  created: z.number().int().nonnegative(),
  favorite: z.boolean(),
  imported: z.boolean(),
  fromTour: z.boolean(),
});

export type TryoutHistoryItemInput = z.infer<typeof tryoutHistoryItemSchema>;
