// Reading status-cache records back, for both engines. A batch chunk reads a thousand records at
// once and most of them are alike but for the number (every active general taxpayer reads the
// same), so each distinct remainder is parsed once per read and the number put back in front:
// JSON.parse of each record was a third of a cached batch's time.
import type { NtsRecord } from '../domain/status.ts';

/** How a record's text starts: SQLite keeps JSON.stringify's text, PostgreSQL's jsonb prints a space. */
const PREFIXES = ['{"b_no":"', '{"b_no": "'] as const;

export class RecordReader {
  readonly #templates = new Map<string, Omit<NtsRecord, 'b_no'>>();

  read(text: string): NtsRecord {
    for (const prefix of PREFIXES) {
      if (!text.startsWith(prefix)) continue;
      const end = text.indexOf('"', prefix.length);
      const bno = text.slice(prefix.length, end);
      // digits only; anything escaped is left to JSON.parse
      if (end < 0 || bno.includes('\\')) break;
      const rest = text.slice(end + 1);
      const known = this.#templates.get(rest);
      if (known) return { b_no: bno, ...known };
      const parsed = JSON.parse(text) as NtsRecord;
      // a later duplicate b_no key would win in JSON.parse: such a text is not shared
      if (parsed.b_no !== bno) return parsed;
      const { b_no: _, ...template } = parsed;
      this.#templates.set(rest, template);
      return parsed;
    }
    return JSON.parse(text) as NtsRecord;
  }
}
