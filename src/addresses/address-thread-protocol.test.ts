import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromColumns, keptFromColumns, keptToColumns, toColumns } from './address-thread-protocol.ts';
import type { ChunkMailing, KeptChunk } from '../domain/mailing-score.ts';

const rows: ChunkMailing[] = [
  {
    v: { b_no: '1248100998', biz_status: 'closed', closed_on: '2019-12-31', entity_type: 'individual_taxable', nts: { end_dt: '20191231', tax_type_cd: '01' } },
    name: '(주)한빛식당', raw: '서울 강남구 테헤란로 152, 3층', liveNeighbour: null,
    history: { bizBounced: 3, bizDelivered: 1, bizGone: 2, bizAbsent: 1, addressBounced: 4, addressDelivered: 0 },
  },
  {
    v: { b_no: '2208162517', biz_status: 'unregistered', closed_on: null, entity_type: 'corporate_head', nts: null },
    name: '정밀', raw: '', liveNeighbour: '2208162518',
    history: { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 7 },
  },
  {
    // a record without the fields (not what NTS sends, but what a thread must not change)
    v: { b_no: '1018177389', biz_status: 'active', closed_on: null, entity_type: 'individual_exempt', nts: { end_dt: undefined as unknown as string, tax_type_cd: '' } },
    name: '하나', raw: '부산 해운대구 센텀중앙로 79', liveNeighbour: null,
    history: { bizBounced: 0, bizDelivered: 2, bizGone: 0, bizAbsent: 0, addressBounced: 1, addressDelivered: 1 },
  },
];

test("a chunk's rows cross to the address thread as columns and arrive as they were sent", () => {
  assert.deepEqual(fromColumns(structuredClone(toColumns(rows))), rows);
  assert.deepEqual(fromColumns(toColumns([])), []);
});

test('scored rows come back as columns and read as the thread scored them', () => {
  const kept: KeptChunk = {
    judgements: [{ judged: '[0.05,"A","send",[],"m1"]', features: '{}', grade: 'A', modelVersion: 'm1' }],
    rows: [{ judgement: 0, own: '["06236","서울특별시 강남구 테헤란로 152",null]', addressKey: 'b:1168010100' }, { judgement: 0, own: '[null,null,null]', addressKey: null }],
  };
  assert.deepEqual(keptFromColumns(structuredClone(keptToColumns(kept))), kept);
});
