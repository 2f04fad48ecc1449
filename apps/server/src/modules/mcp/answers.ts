import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { format } from '@portico/contracts/format';
import { en } from '@portico/contracts/messages';

export type ToolAnswer = CallToolResult;

/** A tool's answer in words (Markdown). */
export function text(body: string): ToolAnswer {
  return { content: [{ type: 'text', text: body }] };
}

/** A tool's answer as data: the JSON as text (every client reads it) and as structured content. */
export function data(value: Record<string, unknown>): ToolAnswer {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/**
 * A refusal of one of the portal's routes as a tool error: its status and the error document's
 * titles and details (JSON:API), the `error_description` of an OAuth error, or the status alone.
 */
export function refusal(status: number, body: string): ToolAnswer {
  let reason = '';
  try {
    const parsed = JSON.parse(body) as {
      errors?: { title?: string; detail?: string; source?: { pointer?: string } }[];
      error?: string;
      error_description?: string;
      message?: string;
    };
    if (Array.isArray(parsed.errors)) {
      reason = parsed.errors
        .map((e) =>
          [e.detail ?? e.title, e.source?.pointer ? `(${e.source.pointer})` : ''].filter(Boolean).join(' '),
        )
        .join('; ');
    } else if (parsed.error) {
      reason = parsed.error_description ? `${parsed.error}: ${parsed.error_description}` : parsed.error;
    } else if (parsed.message) reason = parsed.message;
  } catch {
    reason = '';
  }
  return {
    ...text(format(en.mcp.refused, { status, reason: reason || String(status) })),
    isError: true,
  };
}
