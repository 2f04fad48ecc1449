/**
 * YAML (block style) of a stored document's JSON, written without a YAML library: `yaml` takes
 * over a second per megabyte, too slow for a 13 MB document. Pure: run in a worker thread of the
 * document pool (yaml-task.ts), never on the thread that answers requests.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strings written without quotes: nothing YAML could read as another type or as syntax. */
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_ ./()-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;

/** Dotted versions ('3.1.0'): no YAML schema reads them as anything but a string. */
const VERSION = /^\d+\.\d+\.\d+$/;

function scalar(v: string): string {
  if (VERSION.test(v)) return v;
  if (v !== '' && PLAIN.test(v) && !RESERVED.test(v) && !v.endsWith(' ') && !v.includes(' #')) return v;
  // A JSON string is a YAML double-quoted scalar.
  return JSON.stringify(v);
}

/** A multi-line string as a literal block, when one can hold it exactly; else undefined. */
function literal(v: string, pad: string): string | undefined {
  if (!v.includes('\n') || /^[ \n]|\r|[^\n\t\x20-\x7e\u00a0-\ud7ff\ue000-\ufffd]|\n\n$|[ \t]\n/.test(v))
    return undefined;
  const body = v.endsWith('\n') ? v.slice(0, -1) : v;
  if (/[ \t]$/.test(body)) return undefined;
  const lines = body.split('\n').map((l) => (l ? `${pad}${l}` : ''));
  return `${v.endsWith('\n') ? '|' : '|-'}\n${lines.join('\n')}`;
}

function value(v: unknown, pad: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return literal(v, pad) ?? scalar(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/**
 * YAML (block style) of a JSON value, one piece per member of the top three levels, written
 * without a YAML library: `yaml` takes over a second per megabyte, too slow for a 13 MB document.
 * JSON strings are valid YAML double-quoted scalars; multi-line text becomes a literal block.
 */
export function* yamlPieces(v: unknown, pad: string, depth: number): Generator<string> {
  if (isPlainObject(v)) {
    for (const [k, item] of Object.entries(v)) {
      const key = `${pad}${scalar(k)}:`;
      if (isPlainObject(item) && Object.keys(item).length) {
        yield `${key}\n`;
        if (depth < 3) yield* yamlPieces(item, `${pad}  `, depth + 1);
        else yield [...yamlPieces(item, `${pad}  `, depth + 1)].join('');
      } else if (Array.isArray(item) && item.length) {
        yield `${key}\n${[...yamlPieces(item, pad, depth + 1)].join('')}`;
      } else yield `${key} ${value(item, `${pad}  `)}\n`;
    }
  } else if (Array.isArray(v)) {
    for (const item of v) {
      if (
        (isPlainObject(item) || Array.isArray(item)) &&
        (Array.isArray(item) ? item.length : Object.keys(item).length)
      ) {
        // The first member goes on the dash's line.
        const inner = [...yamlPieces(item, `${pad}  `, depth + 1)].join('');
        yield `${pad}- ${inner.slice(pad.length + 2)}`;
      } else yield `${pad}- ${value(item, `${pad}  `)}\n`;
    }
  } else yield `${pad}${value(v, `${pad}  `)}\n`;
}

/**
 * The whole YAML of a JSON value as UTF-8 bytes: one buffer of its own, to be moved to another
 * thread. The pieces are joined a megabyte at a time and measured, then each part is encoded once,
 * straight into a buffer of the exact size: an ArrayBuffer of its own (never a slice of Node's
 * pool), so that it can be moved.
 */
export function yamlBytes(doc: unknown): Uint8Array<ArrayBuffer> {
  const parts: string[] = [];
  let pending: string[] = [];
  let size = 0;
  let total = 0;
  const flush = () => {
    const part = pending.join('');
    parts.push(part);
    total += Buffer.byteLength(part, 'utf8');
    pending = [];
    size = 0;
  };
  for (const piece of yamlPieces(doc, '', 0)) {
    pending.push(piece);
    size += piece.length;
    if (size >= 1024 * 1024) flush();
  }
  if (pending.length) flush();
  const whole = new Uint8Array(new ArrayBuffer(total));
  const encoder = new TextEncoder();
  let at = 0;
  for (const part of parts) at += encoder.encodeInto(part, whole.subarray(at)).written;
  if (at !== total) throw new Error(`YAML of ${total} bytes came out as ${at}`);
  return whole;
}
