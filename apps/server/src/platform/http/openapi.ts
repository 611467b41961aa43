import { z } from 'zod';
import { API_BASE, ERRORS } from '@ess/contract';
import type { AnyRoute } from './route.ts';

type Json = Record<string, unknown>;

/**
 * A schema as OpenAPI JSON. Recursive schemas (trees) come with their own `definitions`; those go
 * to the document's components under a name of the operation (`<operationId>_<name>`) and their
 * references are rewritten to point there.
 */
function schemaOf(s: z.ZodType, components: Json, prefix: string, io: 'input' | 'output' = 'input'): Json {
  const { definitions, ...schema } = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Json & { definitions?: Json };
  if (!definitions) return schema;
  const rename = (name: string) => `${prefix}_${name.replace(/^_+/, '')}`;
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' ? x.replace(/^#\/definitions\/(.+)$/, (_, n: string) => `#/components/schemas/${rename(n)}`) : rewrite(x)]),
    );
  };
  for (const [name, def] of Object.entries(definitions)) components[rename(name)] = rewrite(def);
  return rewrite(schema) as Json;
}

const envelope: Json = {
  type: 'object',
  required: ['errorCode', 'tipMsg', 'errorMsg', 'data'],
  properties: {
    errorCode: { type: 'string', description: '"00000" is success; other codes: see x-error-codes' },
    tipMsg: { type: 'string' },
    errorMsg: { type: 'string' },
    data: {},
  },
};

/**
 * The OpenAPI document, generated from the registered routes and their contract schemas.
 * The committed copy (apps/server/openapi.json) must equal this; a test checks it.
 */
export function buildOpenApi(routes: AnyRoute[]): Json {
  const paths: Record<string, Json> = {};
  const schemas: Json = { Envelope: envelope };
  for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const operationId = `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
    const envelopeOf = (data: z.ZodType): Json => ({
      allOf: [
        { $ref: '#/components/schemas/Envelope' },
        { type: 'object', required: ['data'], properties: { data: schemaOf(data, schemas, `${operationId}Response`, 'output') } },
      ],
    });
    const op: Json = {
      operationId,
      summary: r.name,
      tags: [r.area ?? r.path.split('/')[1] ?? ''],
      'x-access': r.access,
      security: r.access === 'public' ? [] : [{ token: [] }],
      responses: {
        '200': {
          description: r.raw ? 'file, image or event stream' : 'envelope',
          content: r.raw
            ? { 'application/octet-stream': {} }
            : { 'application/json': { schema: r.response ? envelopeOf(r.response) : { $ref: '#/components/schemas/Envelope' } } },
        },
        default: { description: 'error envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } },
      },
    };
    if (r.query) {
      const q = schemaOf(r.query, schemas, `${operationId}Query`);
      const props = (q.properties ?? {}) as Record<string, Json>;
      const required = new Set((q.required as string[] | undefined) ?? []);
      op.parameters = Object.entries(props).map(([name, schema]) => ({ name, in: 'query', required: required.has(name), schema }));
    }
    if (r.multipart) {
      op.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } },
      };
    } else if (r.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(r.body, schemas, `${operationId}Body`) } } };
    }
    paths[API_BASE + r.path] = { ...(paths[API_BASE + r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Energy-storage operations console API', version: '1.0.0' },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } },
      schemas,
    },
    'x-error-codes': Object.fromEntries(Object.values(ERRORS).map((e) => [e.code, { status: e.status, tipMsg: e.tip }])),
    paths,
  };
}
