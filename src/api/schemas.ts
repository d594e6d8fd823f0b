// Shared response schemas. Declared once, they validate nothing on the way out (fast-json-stringify
// serialises with them) but document every field in /openapi.json.
import { Type } from 'typebox';

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String({ description: 'stable machine-readable error code' }),
    request_id: Type.String(),
  },
  { additionalProperties: true, description: 'RFC 9457 problem details' },
);

export const problemResponses = {
  400: Problem,
  401: Problem,
  403: Problem,
  429: Problem,
} as const;
