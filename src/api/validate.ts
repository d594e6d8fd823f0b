// POST /validate: NTS's 진위확인 (authenticity check) for one business.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { rateLimitHeaders } from '../accounts/quota.ts';
import { localeFrom } from '../domain/locale.ts';
import { BIZ_STATUSES } from '../domain/verification.ts';
import type { ValidateService } from '../verification/validate-service.ts';
import { requireAccount } from './auth.ts';
import { problemResponses, Problem } from './schemas.ts';
import { Nullable, NtsDetail } from './verify.ts';

const Text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

export const ValidateRequest = Type.Object(
  {
    b_no: Type.String({ pattern: '^[0-9]{10}$', description: 'Business registration number: 10 digits, no hyphens' }),
    start_dt: Type.String({ minLength: 8, maxLength: 10, description: '개업일자, the opening date: YYYYMMDD (YYYY-MM-DD is accepted)' }),
    p_nm: Type.String({ minLength: 1, maxLength: 100, description: '대표자성명, the representative\'s name' }),
    p_nm2: Text(100, '대표자성명2: the Korean name of a foreign representative'),
    b_nm: Text(200, '상호, the business name'),
    corp_no: Text(14, '법인등록번호: 13 digits'),
    b_sector: Text(100, '주업태명'),
    b_type: Text(100, '주종목명'),
    b_adr: Text(500, '사업장주소'),
  },
  { additionalProperties: false },
);

export const ValidateResult = Type.Object({
  b_no: Type.String(),
  valid: Type.Boolean({ description: 'NTS confirmed that the details are the registered ones' }),
  valid_code: Nullable(Type.String({ enum: ['01', '02'] }), 'NTS valid code: 01 confirmed, 02 not; null when the check digit fails (nothing asked, not charged)'),
  valid_msg: Nullable(Type.String(), 'NTS text when not confirmed ("확인할 수 없습니다.")'),
  biz_status: Nullable(Type.String({ enum: [...BIZ_STATUSES] }), 'the status NTS returned with a confirmation; invalid for a bad check digit; null when not confirmed'),
  closed_on: Nullable(Type.String(), 'closure date (YYYY-MM-DD) when closed'),
  tax_type: Nullable(Type.String(), 'NTS tax type text'),
  nts: Type.Union([NtsDetail, Type.Null()], { description: 'the status record NTS nested in its confirmation, exactly as received' }),
  entity_type: Type.String(),
  reasons: Type.Array(Type.String(), { description: '"[label ±w.ww] text (source)"' }),
  checked_at: Nullable(Type.String(), 'when NTS answered'),
  source: Nullable(Type.String(), 'nts | sandbox'),
  verification_id: Nullable(Type.String(), 'the kept, signed record of NTS\'s answer (with what was asked): GET /verifications/{verification_id}; null when nothing was asked'),
});

export function validateRoutes(service: ValidateService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/validate',
      {
        schema: {
          summary: '진위확인: check that the details held for a business are the registered ones',
          description: 'Charged as one lookup when NTS answers (01 or 02); a number failing the check digit is not sent and not charged.',
          body: ValidateRequest,
          response: { 200: ValidateResult, ...problemResponses, 503: Problem },
        },
      },
      async (request, reply) => {
        const account = requireAccount(request);
        const { result, quota } = await service.validate(account, request.body, localeFrom(request.headers['accept-language']));
        reply.headers(rateLimitHeaders(quota, new Date()));
        return result;
      },
    );
  };
}
