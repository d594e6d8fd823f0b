import { test } from 'node:test';
import assert from 'node:assert/strict';
import iconv from 'iconv-lite';
import { detectDelimiter, detectEncoding, detectFile, kindFromName } from './detect.ts';
import { FileError } from './errors.ts';

const KOREAN_CSV = '사업자등록번호,상호,주소\r\n124-81-00998,한빛상사,서울특별시 강남구 테헤란로 152\r\n';

test('CP949 bytes made by iconv-lite are detected as CP949, the same text in UTF-8 as UTF-8', () => {
  assert.equal(detectEncoding(iconv.encode(KOREAN_CSV, 'cp949')), 'cp949');
  assert.equal(detectEncoding(Buffer.from(KOREAN_CSV, 'utf8')), 'utf-8');
  assert.equal(detectEncoding(Buffer.from(`\uFEFF${KOREAN_CSV}`, 'utf8')), 'utf-8');
  // EUC-KR is the subset of CP949 that older systems write
  assert.equal(detectEncoding(iconv.encode(KOREAN_CSV, 'euc-kr')), 'cp949');
});

test('a UTF-8 character cut by the end of the sample is still UTF-8', () => {
  const text = Buffer.from('상호,주소\n한빛', 'utf8');
  assert.equal(detectEncoding(text.subarray(0, text.length - 1)), 'utf-8');
});

test('UTF-16 with a BOM (Excel "유니코드 텍스트") is recognised', () => {
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('사업자번호\t상호\r\n', 'utf16le')]);
  assert.deepEqual(detectFile(le), { kind: 'csv', encoding: 'utf-16le', delimiter: '\t' });
});

test('the delimiter is the one that splits the lines consistently, outside quotes', () => {
  assert.equal(detectDelimiter('a,b,c\n1,2,3\n'), ',');
  assert.equal(detectDelimiter('a\tb\tc\n1\t2\t3\n'), '\t');
  // commas inside an address must not win over the semicolons
  assert.equal(detectDelimiter('번호;상호;주소\n1;한빛;서울, 강남구\n2;두리;부산, 해운대구\n'), ';');
  assert.equal(detectDelimiter('번호,상호,주소\n1,"한빛; 두리","서울\n강남구"\n2,x,y\n'), ',');
  // a title line above the header
  assert.equal(detectDelimiter('거래처 목록\n\n번호\t상호\t주소\n1\t2\t3\n'), '\t');
  assert.equal(detectDelimiter('사업자등록번호\n1248100998\n'), ',');
  assert.equal(detectDelimiter('사업자등록번호\n1248100998\n', '\t'), '\t');
});

test('kinds: content first, then the declared name and type', () => {
  const zip = Buffer.from('PK\x03\x04rest of a zip', 'latin1');
  assert.equal(detectFile(zip, { filename: 'list.csv' }).kind, 'xlsx');
  assert.equal(detectFile(Buffer.from('[{"b_no":"1"}]')).kind, 'json');
  assert.equal(detectFile(Buffer.from('  \n{"b_no":"1"}\n{"b_no":"2"}')).kind, 'json');
  assert.equal(detectFile(Buffer.from('\uFEFF[]')).kind, 'json');
  assert.equal(detectFile(Buffer.from('[고객],[번호]\n1,2'), { filename: 'a.csv' }).kind, 'csv');
  assert.equal(detectFile(Buffer.from('b_no,name\n1,2'), { filename: 'a.json' }).kind, 'csv');
  assert.deepEqual(detectFile(Buffer.from('b_no;name\n1;2'), { contentType: 'text/csv' }), { kind: 'csv', encoding: 'utf-8', delimiter: ';' });
  assert.equal(kindFromName('고객.XLSX'), 'xlsx');
  assert.equal(kindFromName(undefined, 'application/x-ndjson'), 'json');
  assert.equal(kindFromName('x.bin', 'application/octet-stream'), null);
});

test('an .xls, an HTML table saved as .xls, garbage and emptiness are refused with a reason', () => {
  const ole2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0]);
  assert.throws(() => detectFile(ole2, { filename: '거래처.xls' }), (e: unknown) => e instanceof FileError && e.code === 'unsupported_format' && /xls/.test(e.message));
  assert.throws(() => detectFile(Buffer.from('<html><table><tr><td>사업자번호</td></tr></table></html>'), { filename: 'a.xls' }), { code: 'unsupported_format' });
  const garbage = Buffer.alloc(4096);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256;
  assert.throws(() => detectFile(garbage), { code: 'unreadable' });
  assert.throws(() => detectFile(Buffer.alloc(0)), { code: 'empty' });
  assert.throws(() => detectFile(Buffer.from(' \r\n\t ')), { code: 'empty' });
});
