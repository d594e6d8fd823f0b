// JSON → records, from stream-json's token stream rather than assembled values: assembling would
// build whatever nesting the file has (100,000 nested arrays) and any string length in memory.
// Here depth is a counter checked on every open bracket, strings arrive in chunks and stop being
// kept past the cell limit, and a nested value is re-serialised as text with an explicit stack.

import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import iconv from 'iconv-lite';
import parser from 'stream-json/parser.js';
import type { TextEncoding } from './detect.ts';
import { FileError } from './errors.ts';

export interface JsonOptions {
  encoding: TextEncoding;
  maxDepth: number;
  maxCellChars: number;
  maxColumns: number;
}

export interface JsonSource {
  /** every key seen so far, in order of first appearance; records align with it */
  readonly keys: readonly string[];
  /** one per object: an array of objects, or NDJSON / concatenated objects */
  records: AsyncGenerator<string[]>;
}

function badJson(message: string, cause?: unknown): FileError {
  return new FileError('bad_json', `JSON 형식이 올바르지 않습니다: ${message}`, {}, cause);
}

export function jsonRecords(body: Readable, opts: JsonOptions): JsonSource {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  return { keys, records: generate(body, opts, keys, keyIndex) };
}

async function* generate(body: Readable, opts: JsonOptions, keys: string[], keyIndex: Map<string, number>): AsyncGenerator<string[]> {
  const tokens = parser.asStream({ packValues: false, streamValues: true, jsonStreaming: true });
  pipeline(body, iconv.decodeStream(opts.encoding, { stripBOM: true }), tokens, () => {});

  const limit = opts.maxCellChars;
  let depth = 0;
  // 'array': rows are the objects inside one top-level array; 'objects': rows are top-level objects
  let shape: 'array' | 'objects' | null = null;
  let arrayClosed = false;
  let item = 0;
  let record: string[] | null = null;
  let key: string | null = null;
  // the string, number or key being received in chunks
  let buf = '';
  // a nested value being re-serialised, and per open container whether a comma is due
  let nested = '';
  const commaDue: boolean[] = [];
  let afterKey = false;

  const rowDepth = () => (shape === 'array' ? 2 : 1);
  const append = (text: string) => {
    if (nested.length <= limit) nested += text;
  };
  const beforeNestedValue = () => {
    if (afterKey) afterKey = false;
    else if (commaDue.length > 0) {
      if (commaDue[commaDue.length - 1]) append(',');
      commaDue[commaDue.length - 1] = true;
    }
  };
  const assign = (value: string) => {
    if (!record || key === null) return;
    let i = keyIndex.get(key);
    if (i === undefined) {
      if (keys.length >= opts.maxColumns) {
        throw new FileError('too_many_columns', `JSON의 키(열)가 너무 많습니다 (최대 ${opts.maxColumns}개).`, { limit: opts.maxColumns });
      }
      i = keys.length;
      keys.push(key);
      keyIndex.set(key, i);
    }
    while (record.length < i) record.push('');
    record[i] = value.length > limit ? value.slice(0, limit) : value;
    key = null;
  };
  const primitive = (text: string) => {
    if (depth > rowDepth()) {
      beforeNestedValue();
      append(text);
    } else if (depth === rowDepth() && record) assign(text);
    else throw badJson(`${item + 1}번째 항목이 객체({ ... })가 아닙니다. 각 행은 객체여야 합니다.`);
  };

  try {
    for await (const token of tokens as AsyncIterable<parser.Token>) {
      switch (token.name) {
        case 'startObject':
        case 'startArray': {
          const opener = token.name === 'startObject' ? '{' : '[';
          if (depth === 0) {
            if (arrayClosed) throw badJson('최상위 배열 뒤에 다른 내용이 있습니다.');
            if (shape === null) shape = opener === '[' ? 'array' : 'objects';
            else if (shape === 'array' || opener === '[') throw badJson('줄마다 객체 하나씩(NDJSON) 또는 객체의 배열 하나여야 합니다.');
          }
          depth++;
          if (depth > opts.maxDepth) {
            throw new FileError('too_deep', `JSON이 너무 깊게 중첩되어 있습니다 (최대 ${opts.maxDepth}단계).`, { limit: opts.maxDepth });
          }
          if (depth === rowDepth()) {
            if (opener !== '{') throw badJson(`${item + 1}번째 항목이 객체({ ... })가 아닙니다. 각 행은 객체여야 합니다.`);
            record = [];
          } else if (depth === rowDepth() + 1) {
            if (key === null) throw badJson('키 없는 값이 있습니다.');
            nested = opener;
            commaDue.length = 0;
            commaDue.push(false);
            afterKey = false;
          } else if (depth > rowDepth() + 1) {
            beforeNestedValue();
            append(opener);
            commaDue.push(false);
          }
          break;
        }
        case 'endObject':
        case 'endArray': {
          const closer = token.name === 'endObject' ? '}' : ']';
          if (depth > rowDepth() + 1) {
            append(closer);
            commaDue.pop();
          } else if (depth === rowDepth() + 1) {
            append(closer);
            // a value cut at the limit is kept as readable text, not as broken JSON pretending to be whole
            assign(nested.length > limit ? `${nested.slice(0, limit - 1)}…` : nested);
            nested = '';
          } else if (depth === rowDepth() && record) {
            const done = record;
            record = null;
            key = null;
            item++;
            yield done;
          }
          depth--;
          if (depth === 0 && shape === 'array') arrayClosed = true;
          break;
        }
        case 'startKey':
        case 'startString':
        case 'startNumber':
          buf = '';
          break;
        case 'stringChunk':
        case 'numberChunk':
          if (buf.length <= limit) buf += token.value;
          break;
        case 'endKey':
          if (depth > rowDepth()) {
            beforeNestedValue();
            append(`${JSON.stringify(buf)}:`);
            afterKey = true;
          } else key = buf.trim();
          buf = '';
          break;
        case 'endString':
          primitive(depth > rowDepth() ? JSON.stringify(buf) : buf);
          buf = '';
          break;
        case 'endNumber':
          primitive(buf);
          buf = '';
          break;
        case 'nullValue':
          primitive(depth > rowDepth() ? 'null' : '');
          break;
        case 'trueValue':
        case 'falseValue':
          primitive(String(token.value));
          break;
        case 'keyValue':
        case 'stringValue':
        case 'numberValue':
        case 'whitespace':
          // not produced with packValues off; listed so a new token kind is a type error here
          break;
      }
    }
  } catch (err) {
    if (err instanceof FileError) throw err;
    throw badJson(err instanceof Error ? err.message : String(err), err);
  } finally {
    tokens.destroy();
  }
  if (depth !== 0) throw badJson('파일이 중간에 끝났습니다.');
}
