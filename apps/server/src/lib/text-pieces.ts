import { SLICE_MS, timeSlices } from './turns.ts';

/**
 * Big texts on the main thread without holding the event loop (issue 11, decision 031): cut into
 * pieces a database row or a socket write can take, and JSON parsed a piece at a time. A 7 MB
 * document parsed whole costs 30-90 ms of one turn of the loop; in pieces, no turn takes more than
 * a few milliseconds.
 */

/**
 * Slices of at most `size` UTF-16 units (one more where a surrogate pair would be cut: an emoji is
 * never split between two slices, so each slice is valid text on its own). Joined, they are `text`.
 */
export function splitText(text: string, size: number): string[] {
  if (size < 2) throw new RangeError('splitText: size must be at least 2');
  const out: string[] = [];
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + size);
    const last = text.charCodeAt(to - 1);
    if (last >= 0xd800 && last <= 0xdbff && to < text.length) to++;
    out.push(text.slice(from, to));
    from = to;
  }
  return out;
}

/**
 * A long text in shared memory, as UTF-8, cut as splitText cuts it: what a worker thread hands
 * the main thread. A string crosses between threads as a copy made by the receiving thread in one
 * piece (structured clone), 90-130 ms of one turn for a 7 MB document on a loaded machine; shared
 * memory is not copied, and the receiver decodes one piece at a time (sharedTextPieces).
 */
export interface SharedText {
  /** The text's length in UTF-16 units, as `string.length`. */
  length: number;
  /** Over a SharedArrayBuffer. */
  utf8: Uint8Array;
  /** Where each piece ends in `utf8`. */
  ends: number[];
}

/** `text` as a SharedText of pieces of at most `size` UTF-16 units (splitText). */
export function shareText(text: string, size: number): SharedText {
  const pieces = splitText(text, size);
  let total = 0;
  for (const piece of pieces) total += Buffer.byteLength(piece, 'utf8');
  const utf8 = new Uint8Array(new SharedArrayBuffer(total));
  const target = Buffer.from(utf8.buffer, utf8.byteOffset, utf8.byteLength);
  const ends: number[] = [];
  let at = 0;
  for (const piece of pieces) {
    at += target.write(piece, at, 'utf8');
    ends.push(at);
  }
  return { length: text.length, utf8, ends };
}

/** The pieces of a SharedText, each decoded when asked for. */
export function* sharedTextPieces(text: SharedText): Generator<string> {
  const bytes = Buffer.from(text.utf8.buffer, text.utf8.byteOffset, text.utf8.byteLength);
  let from = 0;
  for (const end of text.ends) {
    yield bytes.toString('utf8', from, end);
    from = end;
  }
}

/**
 * What parseJsonInPieces reads of its text: a string, or a text kept in its pieces (PieceText).
 * Positions are those of the whole text.
 */
interface ReadableText {
  readonly length: number;
  charCodeAt(index: number): number;
  indexOf(search: string, from: number): number;
  slice(start: number, end: number): string;
}

/**
 * A text read from its pieces (a stored document's rows) without joining them: joining GitHub's
 * 7 MB of rows is one fresh allocation and copy, 34-92 ms of one turn on the shared machine.
 * Slices are joined from the pieces they cover (a value's text, at most a piece or two).
 */
class PieceText implements ReadableText {
  readonly length: number;
  private readonly starts: number[] = [];
  /** The piece last read, and where it starts and ends. */
  private piece = '';
  private from = 0;
  private to = 0;
  private readonly pieces: readonly string[];
  constructor(pieces: readonly string[]) {
    this.pieces = pieces;
    let at = 0;
    for (const piece of pieces) {
      this.starts.push(at);
      at += piece.length;
    }
    this.length = at;
  }
  /** The index of the piece holding position `i` (0 <= i < length). */
  private find(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  private select(k: number) {
    this.piece = this.pieces[k]!;
    this.from = this.starts[k]!;
    this.to = this.from + this.piece.length;
  }
  charCodeAt(i: number): number {
    if (i < this.from || i >= this.to) {
      if (i < 0 || i >= this.length) return NaN;
      this.select(this.find(i));
    }
    return this.piece.charCodeAt(i - this.from);
  }
  indexOf(search: string, from: number): number {
    // Only single characters are searched for (a quote).
    if (from >= this.length) return -1;
    for (let k = this.find(Math.max(0, from)); k < this.pieces.length; k++) {
      const start = this.starts[k]!;
      const found = this.pieces[k]!.indexOf(search, Math.max(0, from - start));
      if (found !== -1) return start + found;
    }
    return -1;
  }
  slice(start: number, end: number): string {
    if (end <= start) return '';
    const k = this.find(start);
    const first = this.starts[k]!;
    if (end <= first + this.pieces[k]!.length) return this.pieces[k]!.slice(start - first, end - first);
    const parts: string[] = [];
    for (let j = k; j < this.pieces.length && this.starts[j]! < end; j++) {
      const at = this.starts[j]!;
      parts.push(this.pieces[j]!.slice(Math.max(0, start - at), end - at));
    }
    return parts.join('');
  }
}

export interface PieceOptions {
  /** Values whose text is at most this long are parsed by one JSON.parse. */
  pieceChars?: number;
  /** Work done between two turns of the event loop. */
  sliceMs?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * JSON.parse of a (big) JSON text, with a turn of the event loop whenever `sliceMs` of work has
 * been done: objects and arrays longer than `pieceChars` are taken apart member by member (their
 * boundaries found by skipping strings with indexOf), smaller values are parsed by JSON.parse.
 * The result equals JSON.parse(text), key order and `__proto__` keys included. Invalid JSON
 * throws a SyntaxError (not always at the same position JSON.parse would name).
 *
 * `source` may also be the text's pieces (a stored document's rows, in order), parsed as their
 * concatenation without ever joining them whole.
 */
export async function parseJsonInPieces(
  source: string | readonly string[],
  options: PieceOptions = {},
): Promise<unknown> {
  const pieceChars = options.pieceChars ?? 256 * 1024;
  const text: ReadableText = typeof source === 'string' ? source : new PieceText(source);
  if (text.length <= pieceChars) return JSON.parse(text.slice(0, text.length));
  const breathe = timeSlices(options.sliceMs ?? SLICE_MS);
  const fail = (at: number): never => {
    throw new SyntaxError(`Unexpected JSON at position ${at}`);
  };
  const skipSpace = (i: number) => {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    return i;
  };
  /** The index after the string that starts at `i` (a quote). */
  const stringEnd = (i: number) => {
    let j = i + 1;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q === -1) fail(i);
      let slashes = 0;
      for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) slashes++;
      if (slashes % 2 === 0) return q + 1;
      j = q + 1;
    }
  };
  /** The index after the value that starts at `i`; a turn of the loop now and then. */
  async function valueEnd(i: number): Promise<number> {
    let depth = 0;
    let steps = 0;
    for (let j = i; j < text.length;) {
      const c = text.charCodeAt(j);
      if (c === QUOTE) {
        j = stringEnd(j);
        if (depth === 0) return j;
      } else if (c === 0x7b || c === 0x5b) {
        depth++;
        j++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) return j;
        depth--;
        j++;
        if (depth === 0) return j;
      } else if (depth === 0 && (c === 0x2c || isSpace(c))) {
        return j;
      } else j++;
      if (++steps % 4096 === 0) await breathe();
    }
    if (depth !== 0) fail(i);
    return text.length;
  }
  function put(target: Record<string, unknown>, key: string, value: unknown) {
    // Plain assignment of `__proto__` would set the prototype; JSON.parse makes an own property.
    if (key === '__proto__') {
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    } else target[key] = value;
  }
  /** The value of text[start, end) (no surrounding space). */
  async function parseValue(start: number, end: number): Promise<unknown> {
    const open = text.charCodeAt(start);
    if (end - start <= pieceChars || (open !== 0x7b && open !== 0x5b)) {
      const value: unknown = JSON.parse(text.slice(start, end));
      await breathe();
      return value;
    }
    const isObject = open === 0x7b;
    const close = isObject ? 0x7d : 0x5d;
    const object: Record<string, unknown> = {};
    const array: unknown[] = [];
    let i = skipSpace(start + 1);
    // `end` is right after the closing bracket (callers trim the space around a value).
    if (text.charCodeAt(i) === close) {
      if (i + 1 !== end) fail(i + 1);
      return isObject ? object : array;
    }
    for (;;) {
      let key = '';
      if (isObject) {
        if (text.charCodeAt(i) !== QUOTE) fail(i);
        const keyEnd = stringEnd(i);
        key = JSON.parse(text.slice(i, keyEnd)) as string;
        i = skipSpace(keyEnd);
        if (text.charCodeAt(i) !== 0x3a) fail(i);
        i = skipSpace(i + 1);
      }
      const valueStop = await valueEnd(i);
      if (valueStop === i) fail(i);
      const value = await parseValue(i, valueStop);
      if (isObject) put(object, key, value);
      else array.push(value);
      i = skipSpace(valueStop);
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i = skipSpace(i + 1);
        continue;
      }
      if (c === close && i + 1 === end) return isObject ? object : array;
      fail(i);
    }
  }
  const start = skipSpace(0);
  let end = text.length;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  return parseValue(start, end);
}
