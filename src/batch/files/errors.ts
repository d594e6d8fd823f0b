// Everything that can be wrong with an uploaded customer file, as one error class. The messages are
// read by office staff who made the file in Excel, so they are Korean and say what to change;
// `details` carries the same facts as data for callers that render their own text (English, JSON).

export type FileErrorCode =
  | 'empty' // no data rows (an empty file, or a header with nothing under it)
  | 'no_number_column' // no column recognisable as 사업자등록번호
  | 'bad_column' // a column the caller named (override) is not in the file
  | 'bad_sheet' // the requested worksheet is not in the workbook, or there is none
  | 'unreadable' // corrupt or not a spreadsheet/text file at all
  | 'unsupported_format' // recognisably something else: .xls (97-2003), encrypted workbook, HTML
  | 'bad_json'
  | 'too_deep' // JSON nested deeper than the limit
  | 'too_many_rows'
  | 'too_many_columns'
  | 'too_large'; // inflated XLSX parts or one CSV record past the limit

export class FileError extends Error {
  readonly code: FileErrorCode;
  readonly details: Record<string, unknown>;
  constructor(code: FileErrorCode, message: string, details: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'FileError';
    this.code = code;
    this.details = details;
  }

  /** Size limits are 413 (the spec's "a file above the limit"); everything else is the file's content, 400. */
  get status(): 400 | 413 {
    return this.code === 'too_many_rows' || this.code === 'too_large' || this.code === 'too_many_columns' ? 413 : 400;
  }
}

export function isFileError(err: unknown): err is FileError {
  return err instanceof FileError;
}
