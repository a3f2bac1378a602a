import { codeMessage, endpointEntries } from '@appdesk/contract';
import type { UploadAccept } from '@appdesk/contract/constants';
import { z } from 'zod';

const accessText = { public: '公开', user: '登录用户', admin: '管理员' } as const;

const uploadKindText: Record<UploadAccept, string> = {
  image: '图片文件（PNG、JPEG、GIF、WebP）',
  audio: '音频文件',
  package: '安装包（APK、AAB、IPA）',
  any: '图片、音频或安装包',
};

type JsonSchema = { properties?: Record<string, { description?: string }>; required?: string[] };

/**
 * An upload's form: the file part plus every other field of the endpoint's input. Those travel as
 * text parts, each read as JSON when it parses (so `3` arrives as a number) and as text otherwise.
 */
function multipartSchema(input: JsonSchema, upload: { field: string; kind: UploadAccept }) {
  const fields = Object.entries(input.properties ?? {}).map(([name, schema]) => {
    const said = schema.description ? `${schema.description}；` : '';
    return [name, { ...schema, description: `${said}表单文本字段，按 JSON 解析` }];
  });
  return {
    type: 'object',
    properties: {
      [upload.field]: { type: 'string', format: 'binary', description: uploadKindText[upload.kind] },
      ...Object.fromEntries(fields),
    },
    required: [upload.field, ...(input.required ?? [])],
  };
}

/** OpenAPI 3.1 document generated from the endpoint table. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const [path, def] of endpointEntries) {
    const input = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' });
    const output = z.toJSONSchema(def.output, { unrepresentable: 'any' });
    const upload = def.upload;
    const root = def.placement === 'root';
    const answer = root
      ? { allOf: [{ $ref: '#/components/schemas/Envelope' }, output] }
      : {
          allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { data: output } }],
        };
    paths[path] = {
      post: {
        summary: def.summary,
        description: `调用权限：${accessText[def.access]}${def.audit ? `；记入操作日志：${def.audit.label}` : ''}${def.idempotent ? '；支持 Idempotency-Key 请求头' : ''}`,
        tags: [path.split('/')[2]],
        security: def.access === 'public' ? [] : [{ token: [] }],
        ...(def.idempotent
          ? {
              parameters: [
                {
                  name: 'Idempotency-Key',
                  in: 'header',
                  required: false,
                  description:
                    '可重试的写操作：同一调用者 24 小时内用同一个键重发，返回第一次成功的结果且不再执行；键相同而参数不同时返回 409',
                  schema: { type: 'string', minLength: 1, maxLength: 255 },
                },
              ],
            }
          : {}),
        requestBody: {
          required: true,
          content: upload
            ? {
                'multipart/form-data': {
                  schema: multipartSchema(input as JsonSchema, upload),
                  example: def.example ?? {},
                },
              }
            : { 'application/json': { schema: input, example: def.example ?? {} } },
        },
        responses: {
          200: { description: '业务结果见 code 字段', content: { 'application/json': { schema: answer } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AppDesk API',
      version: '1.0.0',
      description: `所有接口均为 POST，HTTP 200 返回 {code, message, data}。code：${Object.entries(codeMessage)
        .map(([code, text]) => `${code} ${text}`)
        .join('；')}`,
    },
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'token' } },
      schemas: {
        Envelope: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'integer', enum: Object.keys(codeMessage).map(Number) },
            message: { type: 'string' },
          },
        },
      },
    },
    paths,
  };
}
