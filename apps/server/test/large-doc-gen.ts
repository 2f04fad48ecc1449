type Obj = Record<string, unknown>;

/**
 * A generated document shaped like the big public ones: many operations sharing a few large
 * schemas through `$ref` (dereferenced, each operation would carry its own copy of them).
 */
export function largeDocument(paths: number, schemas = 40): Obj {
  const text = (n: number) => `Lorem ipsum dolor sit amet ${n}, consectetur adipiscing elit, sed do eiusmod.`;
  const shared: Obj = {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [`field${i}`, { type: 'string', description: text(i) }]),
    ),
  };
  const components: Obj = {
    schemas: {
      Shared: shared,
      // A cycle: kept as a `$ref` when resolved.
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
      ...Object.fromEntries(
        Array.from({ length: schemas }, (_, k) => [
          `Item${k}`,
          {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', pattern: '^[a-z0-9]{8}$', description: text(k) },
              shared: { $ref: '#/components/schemas/Shared' },
              tree: { $ref: '#/components/schemas/Node' },
              ...Object.fromEntries(
                Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: 'integer', description: text(i) }]),
              ),
            },
          },
        ]),
      ),
    },
    parameters: {
      Limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    },
    responses: {
      NotFound: {
        description: 'Not found',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Shared' } } },
      },
    },
  };
  const p: Obj = {};
  for (let i = 0; i < paths; i++) {
    const item = `#/components/schemas/Item${i % schemas}`;
    p[`/things${i}/{id}`] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: {
        operationId: `getThing${i}`,
        summary: `Get thing ${i}`,
        description: text(i),
        parameters: [{ $ref: '#/components/parameters/Limit' }],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: item } } } },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
      put: {
        operationId: `putThing${i}`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: item } } } },
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: item } } } },
        },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Large', version: '1.0' }, paths: p, components };
}

/**
 * An order schema of 160 properties with nested objects and lists of them (formats, patterns,
 * enums, bounds), under `/orders/{orderId}` (GET with query parameters, PUT with the order as
 * body): a large schema for the sandbox's validators to compile.
 */
export function withLargeSchema(doc: Obj): Obj {
  const kinds: Obj[] = [
    { type: 'string', format: 'date-time' },
    { type: 'string', format: 'email' },
    { type: 'string', pattern: '^[A-Z]{2}[0-9]{4}$' },
    { type: 'integer', minimum: 0, maximum: 1000 },
    { type: 'number', multipleOf: 0.5 },
    { type: 'string', enum: ['new', 'paid', 'shipped', 'returned'] },
    { type: 'boolean' },
    { type: 'string', format: 'uuid', maxLength: 36 },
  ];
  const properties = (n: number, prefix: string) =>
    Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { ...kinds[i % kinds.length] }]),
    );
  const line = { type: 'object', required: ['sku'], properties: { sku: kinds[2], ...properties(30, 'l') } };
  const order = {
    type: 'object',
    required: ['id', 'status'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      status: kinds[5],
      ...properties(100, 'f'),
      billing: { type: 'object', properties: properties(20, 'b') },
      shipping: {
        type: 'object',
        properties: { ...properties(20, 's'), lines: { type: 'array', items: line } },
      },
      lines: { type: 'array', items: line, minItems: 1 },
      payment: {
        oneOf: [
          { type: 'object', required: ['card'], properties: { card: kinds[2] } },
          { type: 'object', required: ['iban'], properties: { iban: { type: 'string', minLength: 15 } } },
        ],
      },
    },
  };
  const components = doc.components as { schemas: Obj };
  const paths = doc.paths as Obj;
  return {
    ...doc,
    components: { ...components, schemas: { ...components.schemas, Order: order } },
    paths: {
      ...paths,
      '/orders/{orderId}': {
        parameters: [{ name: 'orderId', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getOrder',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'since', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          responses: {
            '200': {
              description: 'OK',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
            },
          },
        },
        put: {
          operationId: 'putOrder',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
          responses: { '204': { description: 'Saved' } },
        },
      },
    },
  };
}
