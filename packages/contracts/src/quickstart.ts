import { z } from 'zod';

/**
 * The Quick Start tour (spec B 2.15, 3 'Quick Start story', 4 'Quick Start', 9): the step shape the
 * content and the server validate; the constants and rules are in quickstart-rules.ts (re-exported).
 */
export * from './quickstart-rules.ts';

export const quickstartStepSchema = z
  .object({
    /** A CSS selector of the element the step points at ('body' centres it). */
    target: z.string().trim().min(1).max(300),
    content: z.string().trim().min(1).max(2000),
    /** The route the step happens on; the tour navigates there first. */
    navigationUrl: z
      .string()
      .trim()
      .regex(/^\/[^\s]*$/, 'must be a path starting with /')
      .max(500)
      .optional(),
    /** Inline styles of the tooltip (React style names). */
    styles: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    /** Whether the highlighted element stays clickable. */
    spotlightClicks: z.boolean().default(false),
  })
  .strict();
export type QuickstartStep = z.infer<typeof quickstartStepSchema>;
