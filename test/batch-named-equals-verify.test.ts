// A named batch row is assessed with its chunk (addresses looked up together, outcomes read in one
// statement, repeats once), yet its result must be what POST /verify answers for the same number,
// name and address: the same probability, grade, action, reasons, correction and address report.
// Lists are written as offices write them (scripts/eval/as-written.ts), against an imported
// directory (the batched lookups) and the sandbox one (one address at a time), with outcomes
// recorded first so that the account's history counts too.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateEntries } from '../src/addresses/address-db-fixture.ts';
import { sandboxWorld } from '../src/addresses/sandbox-data.ts';
import { AddressThreads } from '../src/addresses/address-threads.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import type { DirectoryEntry } from '../src/domain/address/types.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';
import { damageOf, kindOf, unitOf, writeAddress } from '../scripts/eval/as-written.ts';
import { describeEachStore } from './helpers/stores.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';

/** Fields a verification carries that are about the call, not the answer. */
const PER_CALL = new Set(['request_id', 'cached', 'checked_at']);

function rowsOf(directory: readonly DirectoryEntry[], seed: number): { b_no: string; name: string; address: string }[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: { b_no: string; name: string; address: string }[] = [];
  for (let i = 0; i < 90; i++) {
    const e = pick(directory);
    const kind = kindOf(e);
    const address = writeAddress(e, damageOf(r()), kind === 'house' || r() < 0.3 ? null : unitOf(kind, r), r, pick);
    out.push({ b_no: ((nine) => nine + checkDigitOf(nine))(String(200_000_000 + Math.floor(r() * 700_000_000))), name: `${pick(['(주)', '', '주식회사 '])}${pick(['한빛', '대성', '미래'])}${pick(['식당', '상사', '학원', '의원', ''])}`, address });
  }
  // repeats (the same customer twice), an address of blanks, nonsense, and the same address spaced differently
  out.push({ ...out[3]! }, { ...out[7]! }, { b_no: out[5]!.b_no, name: '다른상호', address: out[5]!.address });
  out.push({ b_no: out[10]!.b_no, name: '공백주소', address: '   ' }, { b_no: out[11]!.b_no, name: '아무말', address: '어딘가 먼 곳 1234번지 뒤' });
  out.push({ b_no: out[12]!.b_no, name: out[12]!.name, address: `  ${out[12]!.address.replace(/ /g, '  ')} ` });
  return out;
}

const csvCell = (s: string): string => `"${s.replace(/"/g, '""')}"`;

for (const directory of ['local', 'sandbox'] as const) {
  describeEachStore(`a named batch row is what POST /verify answers (${directory} directory)`, (kind) => {
    let srv: TestServer;
    let key: string;
    let entries: DirectoryEntry[];
    before(async () => {
      // one thread even on a one-core machine: the threads' answers are what is compared
      srv = await startTestServer(kind, { ADDRESS_DIRECTORY: directory, ADDRESS_THREADS: '1' });
      key = (await srv.account('enterprise')).apiKey;
      if (directory === 'local') {
        entries = [...generateEntries(3_000, { seed: 41 })];
        await srv.store.addresses.upsertEntries(entries);
        await srv.store.addresses.analyze();
      } else entries = [...sandboxWorld().entries];
    });
    after(() => srv.close());

    test('every row, with the account\'s recorded outcomes counting in both', async () => {
      const rows = rowsOf(entries, directory === 'local' ? 7 : 8);
      const csv = (list: typeof rows) => `사업자등록번호,상호,주소\n${list.map((r) => `${r.b_no},${csvCell(r.name)},${csvCell(r.address)}`).join('\n')}\n`;
      // a first job whose rows get outcomes: history by number and by address for the second
      const first = await upload(srv.url, key, { name: 'first.csv', body: csv(rows.slice(0, 40)) });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      await waitForJob(srv.url, key, first.body.job_id);
      const labels = Array.from({ length: 40 }, (_, i) => ({ row_id: i + 1, bounced: i % 3 === 0, ...(i % 3 === 0 ? { reason: '이사불명' } : {}) }));
      assert.equal((await call(srv.url, 'POST', `/batch/${first.body.job_id}/labels`, { key, body: labels })).status, 200);

      const job = await upload(srv.url, key, { name: 'list.csv', body: csv(rows) });
      assert.equal(job.status, 202, JSON.stringify(job.body));
      const done = await waitForJob(srv.url, key, job.body.job_id, 60_000, '?preview=1000');
      assert.equal(done.body.status, 'done');
      assert.equal(done.body.preview.length, rows.length);
      let withHistory = 0;
      for (const [i, row] of rows.entries()) {
        const batch = done.body.preview[i].result as Record<string, unknown>;
        const alone = await call(srv.url, 'POST', '/verify', { key, body: row });
        assert.equal(alone.status, 200, JSON.stringify(alone.body));
        const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !PER_CALL.has(k)));
        assert.deepEqual(strip(batch), strip(alone.body as Record<string, unknown>), `row ${i + 1}: ${row.address}`);
        if ((batch.reasons as string[]).some((r) => /반송|배달/.test(r))) withHistory++;
      }
      assert.ok(withHistory > 0, 'some rows were scored with the recorded outcomes');
      assert.ok(srv.addresses instanceof AddressThreads && srv.addresses.answeredInThreads > 0, 'the chunks\' addresses were checked in a thread');
      assert.ok(srv.addresses.scoredInThreads > 0, 'the chunks\' rows were scored in a thread');
    });
  });
}
