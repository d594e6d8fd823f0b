// Counting the elements of an XLSX part before exceljs's parsers see them. The inflate budget
// bounds bytes, but a parser builds an object per element: 245 KB of zip holding tens of millions
// of empty `<r/>` runs in one shared string, `<col/>` in a sheet or `<xf/>` in the styles costs
// gigabytes of heap while staying far under any byte limit. Each part may hold only as many of
// each element as Excel itself can write; past that the file did not come from a spreadsheet
// program and is refused before the parser has built much.
//
// The scan is a regex over the text, not a parser: it counts every `<name` that starts a tag,
// which is every element the parser will see and possibly more (names inside comments or CDATA
// are counted too), so it can refuse too early on a strange file, never too late.
import { FileError } from './errors.ts';

/** Excel's own limits (Excel specifications and limits, Microsoft 365). */
export const EXCEL = {
  rows: 1_048_576,
  columns: 16_384,
  cellChars: 32_767,
  cellFormats: 64_000,
  numberFormats: 250,
} as const;

// shared strings: unique texts of the workbook, all kept until the sheet is read. Four per row
// of Excel's row limit; the parsing thread's heap (BATCH_PARSE_HEAP_MB) bounds them too
const MAX_SHARED_STRINGS = 4 * EXCEL.rows;
// elements of a part that the reader keeps or that describe the workbook, not its rows
const MAX_OTHER_ELEMENTS = 1_000_000;

interface PartRules {
  /** most elements of a name in the whole part */
  total: Record<string, number>;
  /** elements counted afresh inside each element of another name (`c` per `row`, `r` per `si`) */
  within: { parent: string; child: string; limit: number }[];
  /** names the part may hold without limit (a sheet's rows and cells, bounded by the row reader) */
  free: ReadonlySet<string>;
}

const SHEET: PartRules = {
  total: { row: EXCEL.rows + 1, col: EXCEL.columns, mergeCell: EXCEL.columns * 64, hyperlink: EXCEL.columns * 64 },
  // inline rich text (`<is><r>`) has the shared strings' bound per cell
  within: [{ parent: 'row', child: 'c', limit: EXCEL.columns }, { parent: 'c', child: 'r', limit: EXCEL.cellChars }],
  free: new Set(['row', 'c', 'v', 'f', 'is', 't', 'r', 'rPr', 'rFont', 'sz', 'color', 'b', 'i', 'u', 'family', 'scheme', 'charset', 'vertAlign', 'strike']),
};

const RULES: Record<'sharedStrings' | 'styles' | 'workbook' | 'rels' | 'sheet', PartRules> = {
  sharedStrings: {
    total: { si: MAX_SHARED_STRINGS },
    // a run holds at least one character, and a cell at most 32,767
    within: [{ parent: 'si', child: 'r', limit: EXCEL.cellChars }],
    free: new Set(['si', 'r', 't', 'rPr', 'rFont', 'sz', 'color', 'b', 'i', 'u', 'family', 'scheme', 'charset', 'vertAlign', 'strike', 'outline', 'shadow', 'condense', 'extend', 'rPh', 'phoneticPr']),
  },
  styles: {
    // cellXfs and cellStyleXfs each hold at most Excel's number of cell formats
    total: { xf: 2 * EXCEL.cellFormats, numFmt: EXCEL.numberFormats * 4, font: EXCEL.cellFormats, fill: EXCEL.cellFormats, border: EXCEL.cellFormats, dxf: EXCEL.cellFormats, cellStyle: EXCEL.cellFormats },
    within: [],
    free: new Set(),
  },
  workbook: { total: { sheet: 4096, definedName: 100_000 }, within: [], free: new Set() },
  rels: { total: { Relationship: 100_000 }, within: [], free: new Set() },
  sheet: SHEET,
};

export type PartKind = keyof typeof RULES;

// `<` and a name: the start of an element (closing tags, `<?` and `<!` do not match)
const START = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/g;
const DECLARATION = /<!(?:DOCTYPE|ENTITY)/i;
// a tag name is never longer than this; a `<` nearer the end of a chunk may have its name cut off
const NAME_TAIL = 128;

function tooMany(what: string, limit: number): FileError {
  return new FileError(
    'too_large',
    `엑셀 파일의 구조가 비정상적입니다: ${what}가 엑셀이 허용하는 수(${limit.toLocaleString('ko-KR')}개)를 넘습니다. 엑셀에서 "다른 이름으로 저장"으로 새 파일을 만들어 다시 올려 주세요.`,
    { element: what, limit },
  );
}

export class ElementCounter {
  readonly #rules: PartRules;
  readonly #counts = new Map<string, number>();
  #other = 0;
  readonly #within: number[];
  #carry = '';

  constructor(kind: PartKind) {
    this.#rules = RULES[kind];
    this.#within = this.#rules.within.map(() => 0);
  }

  /** Counts the start tags in the next piece of the part's text; throws FileError past a limit. */
  feed(chunk: string): void {
    const text = this.#carry + chunk;
    let upto = text.length;
    const lt = text.lastIndexOf('<');
    // a name cut off at the end of the chunk is counted with the next one
    if (lt !== -1 && text.length - lt < NAME_TAIL && !/[\s/>]/.test(text.slice(lt + 1))) upto = lt;
    const scanned = upto === text.length ? text : text.slice(0, upto);
    this.#carry = text.slice(upto);
    if (DECLARATION.test(scanned)) {
      throw new FileError('unreadable', '엑셀 파일에 허용되지 않는 문서 형식 선언(DTD)이 있습니다. 엑셀에서 다시 저장해 올려 주세요.');
    }
    const rules = this.#rules;
    START.lastIndex = 0;
    for (let m = START.exec(scanned); m; m = START.exec(scanned)) {
      const name = m[1]!;
      for (let i = 0; i < rules.within.length; i++) {
        const w = rules.within[i]!;
        if (name === w.parent) this.#within[i] = 0;
        else if (name === w.child && ++this.#within[i]! > w.limit) throw tooMany(`<${w.parent}> 하나 안의 <${name}>`, w.limit);
      }
      const limit = rules.total[name];
      if (limit !== undefined) {
        const n = (this.#counts.get(name) ?? 0) + 1;
        if (n > limit) throw tooMany(`<${name}>`, limit);
        this.#counts.set(name, n);
      } else if (!rules.free.has(name) && ++this.#other > MAX_OTHER_ELEMENTS) {
        throw tooMany('요소', MAX_OTHER_ELEMENTS);
      }
    }
  }
}
