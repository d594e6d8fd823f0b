import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDigitOf, hasValidCheckDigit } from '../domain/bizno.ts';
import { NTS_UNREGISTERED_TEXT } from './nts-wire.ts';
import { SANDBOX_FIXED, SandboxRegistry, sandboxRecord } from './sandbox.ts';

const valid = (nine: string): string => nine + String(checkDigitOf(nine));

describe('sandbox world', () => {
  test('fixed numbers are check-digit-valid and give their documented status', () => {
    const code = { active: '01', suspended: '02', closed: '03', unregistered: '' } as const;
    for (const status of ['active', 'suspended', 'closed', 'unregistered'] as const) {
      assert.ok(SANDBOX_FIXED.filter((f) => f.status === status).length >= 2, status);
    }
    for (const f of SANDBOX_FIXED) {
      assert.ok(hasValidCheckDigit(f.bno), f.bno);
      const r = sandboxRecord(f.bno);
      assert.equal(r.b_stt_cd, code[f.status], f.bno);
      assert.equal(r.end_dt, f.endDt, f.bno);
    }
    assert.equal(sandboxRecord('1248100998').b_stt, '계속사업자');
  });

  test('statuses are stable and follow the documented shares', () => {
    const n = 20_000;
    const counts: Record<string, number> = { '01': 0, '02': 0, '03': 0, '': 0 };
    for (let i = 0; i < n; i++) {
      const bno = valid(String(200_000_000 + i * 7));
      const r = sandboxRecord(bno);
      assert.deepEqual(sandboxRecord(bno), r);
      counts[r.b_stt_cd] = (counts[r.b_stt_cd] ?? 0) + 1;
    }
    const share = (k: string): number => (counts[k] ?? 0) / n;
    assert.ok(Math.abs(share('01') - 0.82) < 0.02, `01: ${share('01')}`);
    assert.ok(Math.abs(share('03') - 0.08) < 0.015, `03: ${share('03')}`);
    assert.ok(Math.abs(share('02') - 0.04) < 0.01, `02: ${share('02')}`);
    assert.ok(Math.abs(share('') - 0.06) < 0.01, `unregistered: ${share('')}`);
  });

  test('record shapes per status', () => {
    for (let i = 0; i < 2_000; i++) {
      const r = sandboxRecord(valid(String(300_000_000 + i * 13)));
      if (r.b_stt_cd === '') {
        assert.equal(r.tax_type, NTS_UNREGISTERED_TEXT);
        assert.equal(r.b_stt, '');
      } else {
        assert.equal(r.b_stt, { '01': '계속사업자', '02': '휴업자', '03': '폐업자' }[r.b_stt_cd]);
      }
      if (r.b_stt_cd === '03') {
        assert.match(r.end_dt, /^20(1[5-9]|2[0-6])[01][0-9][0-3][0-9]$/);
        assert.ok(r.end_dt >= '20150101' && r.end_dt <= '20260630', r.end_dt);
      } else {
        assert.equal(r.end_dt, '');
      }
    }
  });

  test('tax type follows digits 4–5: corporations 일반과세자, 90–99 면세, others 일반 or 간이', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const tail = String(1000 + i).padStart(4, '0');
      for (const mid of ['81', '85', '86', '87', '88']) {
        const r = sandboxRecord(valid(`120${mid}${tail}`));
        if (r.b_stt_cd !== '') assert.equal(r.tax_type, '부가가치세 일반과세자');
      }
      const exempt = sandboxRecord(valid(`12095${tail}`));
      if (exempt.b_stt_cd !== '') assert.equal(exempt.tax_type, '부가가치세 면세사업자');
      const individual = sandboxRecord(valid(`12012${tail}`));
      if (individual.b_stt_cd !== '') seen.add(individual.tax_type);
    }
    assert.deepEqual([...seen].toSorted(), ['부가가치세 간이과세자', '부가가치세 일반과세자']);
  });

  test('an invalid check digit is answered as unregistered', () => {
    const bad = '1248100999';
    assert.equal(hasValidCheckDigit(bad), false);
    assert.equal(sandboxRecord(bad).b_stt_cd, '');
    assert.equal(sandboxRecord('0000000000').b_stt_cd, '');
  });

  test('SandboxRegistry answers every number asked', async () => {
    const reg = new SandboxRegistry();
    assert.equal(reg.source, 'sandbox');
    const out = await reg.lookup(['1248100998', '1248100999']);
    assert.equal(out.size, 2);
    await reg.close();
  });
});
