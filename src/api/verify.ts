// POST /verify: one business number → status (and, with a name, the mailing-risk assessment).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { rateLimitHeaders } from '../accounts/quota.ts';
import { localeFrom } from '../domain/locale.ts';
import { BIZ_STATUSES } from '../domain/verification.ts';
import { ACTIONS, GRADES } from '../domain/model/grades.ts';
import type { VerifyService } from '../verification/verify-service.ts';
import { requireAccount } from './auth.ts';
import { problemResponses, Problem } from './schemas.ts';

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T, description: string) =>
  Type.Union([t, Type.Null()], { description });

export const VerifyRequest = Type.Object(
  {
    b_no: Type.String({ pattern: '^[0-9]{10}$', description: 'Business registration number: 10 digits, no hyphens' }),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'Business name; when present the bounce-risk assessment is included' })),
    address: Type.Optional(Type.String({ maxLength: 500, description: 'Postal address' })),
  },
  { additionalProperties: false },
);

export const NtsDetail = Type.Object(
  {
    b_no: Type.String(),
    b_stt: Type.String({ description: 'NTS status text (계속사업자, 휴업자, 폐업자, or empty)' }),
    b_stt_cd: Type.String({ description: '01 active, 02 suspended, 03 closed, empty when not registered' }),
    tax_type: Type.String(),
    tax_type_cd: Type.String({ description: '01 일반, 02 간이, 03 과세특례, 04 면세, 05/06 고유번호 단체, 07 간이 (세금계산서 발급)' }),
    end_dt: Type.String({ description: 'closure date YYYYMMDD, empty when none' }),
    utcc_yn: Type.String({ description: 'Y: the number closed on conversion to 사업자단위과세 (biz_status converted)' }),
    tax_type_change_dt: Type.String({ description: 'YYYYMMDD, empty when none' }),
    invoice_apply_dt: Type.String({ description: 'YYYYMMDD, empty when none' }),
    rbf_tax_type: Type.String({ description: '직전 과세유형 text' }),
    rbf_tax_type_cd: Type.String(),
  },
  { description: 'the NTS record exactly as NTS sent it' },
);

export const VerifyResult = Type.Object({
  b_no: Type.String(),
  biz_status: Type.String({ enum: [...BIZ_STATUSES], description: 'converted: the number closed on conversion to 사업자단위과세; the business goes on' }),
  bounce_prob: Nullable(Type.Number({ minimum: 0, maximum: 1 }), 'bounce probability 0..1; null without name'),
  grade: Nullable(Type.String({ enum: [...GRADES] }), 'A (safest) to E; null without name'),
  action: Nullable(Type.String({ enum: [...ACTIONS] }), 'what to do with the letter; null without name'),
  fixed_zipcode: Nullable(Type.String(), '5-digit postal code of the matched address'),
  fixed_address: Nullable(Type.String(), 'normalised road-name address'),
  reasons: Type.Array(Type.String(), { description: '"[label ±w.ww] text (source)"' }),
  entity_type: Type.String({ description: 'from digits 4–5: individual_taxable, individual_exempt, corporate_head, corporate_branch, foreign_corporate, nonprofit, other' }),
  closed_on: Nullable(Type.String(), 'closure date (YYYY-MM-DD) when closed'),
  tax_type: Nullable(Type.String(), 'NTS tax type text'),
  nts: Type.Union([NtsDetail, Type.Null()], { description: 'the NTS record exactly as received; null when there is none' }),
  checked_at: Nullable(Type.String(), 'when the status was obtained from the registry'),
  source: Nullable(Type.String(), 'nts | sandbox'),
  verification_id: Nullable(Type.String(), 'the kept, signed record of the NTS answer this rests on: GET /verifications/{verification_id}; null when there is no answer'),
  cached: Type.Boolean({ description: 'answered from the shared cache' }),
  stale: Type.Boolean({ description: 'a cached answer past its freshness, used because the upstream is down (not charged)' }),
  model_version: Nullable(Type.String(), 'version of the bounce model used'),
  address: Type.Union(
    [
      Type.Object({
        quality: Type.String({ description: 'exact | corrected | ambiguous | not_found | unavailable (directory down)' }),
        changes: Type.Array(
          Type.Object({
            field: Type.String({ description: 'sido | sigungu | eupmyeondong | road_name | building_number | jibun | zipcode' }),
            from: Type.Union([Type.String(), Type.Null()]),
            to: Type.String(),
          }),
          { description: 'what the correction changed, component by component' },
        ),
        candidates: Type.Integer({ description: 'plausible buildings considered' }),
        missing_building_number: Type.Boolean(),
        missing_unit: Type.Boolean(),
        zip_mismatch: Type.Boolean(),
        outdated_zip: Type.Boolean({ description: 'the input carried a 6-digit postal code (before 2015)' }),
        building_id: Nullable(Type.String(), "the matched building's 건물관리번호 (25 digits on the official directories; the sandbox's are marked SBX)"),
        jibun_address: Nullable(Type.String(), 'the matched building\'s lot (지번) address, e.g. 서울특별시 강남구 역삼동 737'),
        reference: Nullable(Type.String(), '참고항목: the 법정동 (동 areas) and the building name, e.g. (역삼동, 강남파이낸스센터)'),
      }),
      Type.Null(),
    ],
    { description: 'address analysis; null unless name and address were sent' },
  ),
});

export function verifyRoutes(service: VerifyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/verify',
      {
        schema: {
          summary: 'Verify one business number',
          body: VerifyRequest,
          response: { 200: VerifyResult, ...problemResponses, 503: Problem },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const { result, quota } = await service.verify(account, request.body, localeFrom(request.headers['accept-language']));
        reply.headers(rateLimitHeaders(quota, new Date()));
        return result;
      },
    );
  };
}
