// One table of written addresses, answered by every directory over the same world: the sandbox,
// the official files imported into the embedded store, and juso (the fake, which searches as the
// real one does: by road and number, lot, building name, and former addresses). Each form must
// get the same quality and fixed address from each directory that can read it; juso has no list
// of roads to be near to, so typos and a missing 로/길 are the sandbox's and the files' alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { DirectoryEntry } from '../domain/address/types.ts';
import { jibunAddressOf } from '../domain/address/official-form.ts';
import { seededRandom } from '../domain/seeded-random.ts';
import { openAddressStore, type OpenAddressStore } from '../../test/helpers/address-stores.ts';
import { createAddressService, type AddressService } from './address-service.ts';
import { startFakeJuso, type FakeJuso } from './fake-juso-server.ts';
import { JusoDirectory } from './juso-client.ts';
import { LocalDirectory } from './local-directory.ts';
import { sandboxWorld } from './sandbox-data.ts';
import { SandboxDirectory } from './sandbox-directory.ts';

const T = { timeout: 120_000 };
const SHORT: Record<string, string> = { 서울특별시: '서울', 부산광역시: '부산', 경기도: '경기', 경상남도: '경남', 세종특별자치시: '세종' };

/** One jamo off: the first syllable's vowel ㅏ↔ㅓ, ㅗ↔ㅜ, else ㅐ↔ㅔ-like neighbours. */
function vowelSlip(name: string): string | null {
  const code = name.charCodeAt(0) - 0xac00;
  if (code < 0 || code > 11171) return null;
  const medial = Math.floor((code % 588) / 28);
  const swap: Record<number, number> = { 0: 4, 4: 0, 8: 13, 13: 8, 1: 5, 5: 1, 20: 18, 18: 20 };
  const to = swap[medial];
  if (to === undefined) return null;
  return String.fromCharCode(0xac00 + code - medial * 28 + to * 28) + name.slice(1);
}

interface Form {
  kind: string;
  raw: string;
  /** whether juso can be asked it (it has no typo tolerance) */
  juso: boolean;
}

function formsOf(e: DirectoryEntry, r: () => number): Form[] {
  const region = [e.sido, e.sigungu].filter(Boolean).join(' ');
  const short = [SHORT[e.sido] ?? e.sido, e.sigungu].filter(Boolean).join(' ');
  const num = `${e.underground ? '지하 ' : ''}${e.buildingMain}${e.buildingSub ? `-${e.buildingSub}` : ''}`;
  const forms: Form[] = [
    { kind: 'clean', raw: e.roadAddress, juso: true },
    { kind: 'abbreviated', raw: `${short} ${e.roadName} ${num}`, juso: true },
    { kind: 'lot', raw: jibunAddressOf(e), juso: true },
    { kind: 'old zip and unit', raw: `(${100 + Math.floor(r() * 800)}-${100 + Math.floor(r() * 800)}) ${e.roadAddress} 3층`, juso: true },
    { kind: 'wrong number', raw: `${region} ${e.roadName} ${e.buildingMain + 7000}`, juso: true },
  ];
  const slip = vowelSlip(e.roadName);
  if (slip) forms.push({ kind: 'vowel slip', raw: `${region} ${slip} ${num}`, juso: true });
  if (e.sigungu !== '' && /[가-힣]{2,}(로|길)$/.test(e.roadName) && !/\d/.test(e.roadName)) {
    forms.push({ kind: 'no 로/길', raw: `${region} ${e.roadName.slice(0, -1)} ${num}`, juso: true });
  }
  // a 법정동 named like a road (종로구 세종로, 중구 충정로1가) with its lot
  if (/로(\d가)?$/.test(e.eupmyeondong)) {
    forms.push({ kind: 'dong like a road', raw: `${region} ${e.eupmyeondong} ${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`, juso: true });
  }
  if (e.buildingName !== '') forms.push({ kind: 'name alone', raw: `${region} ${e.eupmyeondong} ${e.buildingName} 1203호`, juso: true });
  // the road and the building's name, no number, as offices write it: "매영로 (영통중앙상가) 2층"
  if (e.buildingName !== '') forms.push({ kind: 'road and name', raw: `${region} ${e.roadName} (${e.buildingName}) 2층`, juso: false });
  // typed with a space before the suffix: "을지 로 62"
  const split = /^([가-힣]{2,})(로|길)$/.exec(e.roadName);
  if (split) forms.push({ kind: 'spaced name', raw: `${region} ${split[1]} ${split[2]} ${num}`, juso: true });
  // the lot with its 동 written as the 행정동 ("역삼1동 737" for 법정동 역삼동)
  const lot = `${e.jibunMountain ? '산' : ''}${e.jibunMain}${e.jibunSub ? `-${e.jibunSub}` : ''}`;
  if (/[가-힣]동$/.test(e.eupmyeondong) && e.ri === '') forms.push({ kind: '행정동 lot', raw: `${region} ${e.eupmyeondong.slice(0, -1)}1동 ${lot}`, juso: false });
  // the lot under its 동 mistyped ("하대운동 188" for 하대원동)
  const dongSlip = e.ri === '' && e.eupmyeondong.length >= 3 ? vowelSlip(e.eupmyeondong) : null;
  if (dongSlip && e.sigungu !== '') forms.push({ kind: 'dong typo', raw: `${region} ${dongSlip} ${lot}`, juso: false });
  return forms;
}

let local: OpenAddressStore;
let juso: FakeJuso;
let services: { name: string; service: AddressService }[];
const world = sandboxWorld().entries;

before(async () => {
  local = await openAddressStore('sqlite');
  await local.store.upsertEntries(world);
  juso = await startFakeJuso({ entries: [...world], confmKey: 'k' });
  services = [
    { name: 'sandbox', service: createAddressService(new SandboxDirectory()) },
    { name: 'local', service: createAddressService(new LocalDirectory(local.store)) },
    { name: 'juso', service: createAddressService(new JusoDirectory({ baseUrl: juso.url, confmKey: 'k' })) },
  ];
});
after(async () => {
  await local.close();
  await juso.close();
});

test('every directory answers the same table alike', T, async () => {
  const r = seededRandom(17);
  // buildings of every kind: named and not, 읍/면 with 리, 세종, 지하
  const picked = [
    ...world.filter((e) => e.buildingName !== '').filter(() => r() < 0.002).slice(0, 12),
    ...world.filter((e) => e.ri !== '').filter(() => r() < 0.002).slice(0, 8),
    ...world.filter((e) => e.sigungu === '').slice(0, 4),
    ...world.filter((e) => e.buildingName === '' && e.ri === '').filter(() => r() < 0.001).slice(0, 8),
    ...world.filter((e) => /로(\d가)?$/.test(e.eupmyeondong) && !e.jibunMountain).slice(0, 4),
  ];
  const tally = new Map<string, Map<string, number>>();
  let compared = 0;
  for (const e of picked) {
    for (const form of formsOf(e, r)) {
      const asked = services.filter((s) => form.juso || s.name !== 'juso');
      const answers = await Promise.all(asked.map(async (s) => {
        const m = await s.service.check(form.raw);
        return { quality: m?.quality, fixed: m?.fixedAddress ?? null };
      }));
      for (const [i, a] of answers.entries()) assert.deepEqual(a, answers[0], `${form.kind}: ${form.raw} — ${asked[i]!.name} vs ${asked[0]!.name}`);
      const byQuality = tally.get(form.kind) ?? new Map<string, number>();
      byQuality.set(answers[0]!.quality ?? 'none', (byQuality.get(answers[0]!.quality ?? 'none') ?? 0) + 1);
      tally.set(form.kind, byQuality);
      compared++;
    }
  }
  assert.ok(compared >= 150, `${compared} forms compared`);
  // the forms mean what they say: clean ones are exact, damaged ones corrected, a number no
  // building has is not found
  const share = (kind: string, quality: string): number => {
    const q = tally.get(kind)!;
    return (q.get(quality) ?? 0) / [...q.values()].reduce((a, b) => a + b, 0);
  };
  assert.equal(share('clean', 'exact'), 1);
  assert.equal(share('wrong number', 'not_found'), 1);
  assert.ok(share('old zip and unit', 'corrected') >= 0.95);
  assert.ok(share('vowel slip', 'corrected') >= 0.6, JSON.stringify([...tally.get('vowel slip')!]));
  assert.ok(share('no 로/길', 'corrected') >= 0.6, JSON.stringify([...tally.get('no 로/길')!]));
  assert.ok(share('name alone', 'corrected') >= 0.6, JSON.stringify([...tally.get('name alone')!]));
  assert.ok(share('dong like a road', 'not_found') === 0, JSON.stringify([...tally.get('dong like a road')!]));
  assert.equal(share('spaced name', 'exact'), 1, JSON.stringify([...tally.get('spaced name')!]));
  assert.ok(share('road and name', 'exact') + share('road and name', 'corrected') >= 0.9, JSON.stringify([...tally.get('road and name')!]));
  assert.ok(share('행정동 lot', 'not_found') === 0, JSON.stringify([...tally.get('행정동 lot')!]));
  assert.ok(share('dong typo', 'corrected') >= 0.6, JSON.stringify([...tally.get('dong typo')!]));
});
