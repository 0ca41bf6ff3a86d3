import { parseJsonBody } from '../json-body/json-body';
import { parseTrackingRequest } from './tracking-request';

const limits = { maxMessageBytes: 200, maxBatchMessages: 3 };

describe('parseTrackingRequest', () => {
  it('takes the type of a single call from the endpoint', () => {
    const parsed = parseTrackingRequest('track', { type: 'identify', userId: 'u1', event: 'E' }, limits);
    expect(parsed).toMatchObject({ ok: true, messages: [{ type: 'track' }] });
  });

  it('reads a batch with its batch-level context, integrations and sentAt', () => {
    const parsed = parseTrackingRequest(
      'batch',
      {
        batch: [{ type: 'identify', userId: 'u1' }],
        context: { a: 1 },
        integrations: { All: false },
        sentAt: '2026-01-01T00:00:00Z',
      },
      limits,
    );
    expect(parsed).toEqual({
      ok: true,
      messages: [{ type: 'identify', userId: 'u1' }],
      batch: { context: { a: 1 }, integrations: { All: false }, sentAt: '2026-01-01T00:00:00Z' },
    });
  });

  it('fails the whole batch when one message is invalid, naming index and field', () => {
    const parsed = parseTrackingRequest(
      'batch',
      {
        batch: [
          { type: 'identify', userId: 'u1' },
          { type: 'track', userId: 'u1' },
        ],
      },
      limits,
    );
    expect(parsed).toMatchObject({
      ok: false,
      status: 400,
      error: 'invalid_messages',
      errors: [{ index: 1, field: 'event' }],
    });
  });

  it.each([[[]], [null]])('accepts an empty batch (%p) as nothing to write', (batch) => {
    expect(parseTrackingRequest('batch', { batch }, limits)).toMatchObject({ ok: true, messages: [] });
  });

  it('refuses an oversize message with 413 and the limit', () => {
    const parsed = parseTrackingRequest(
      'identify',
      { userId: 'u1', traits: { blob: 'x'.repeat(300) } },
      limits,
    );
    expect(parsed).toMatchObject({ ok: false, status: 413, error: 'message_too_large' });
    expect(!parsed.ok && parsed.errors?.[0].reason).toMatch(/the limit is 200/);
  });

  it.each([
    ['a body that is not an object', 'batch', [1], 400, 'invalid_body'],
    ['a batch that is not an array', 'batch', { batch: {} }, 400, 'invalid_body'],
    ['too many messages', 'batch', { batch: [{}, {}, {}, {}] }, 413, 'too_many_messages'],
  ] as const)('refuses %s', (_name, endpoint, body, status, error) => {
    expect(parseTrackingRequest(endpoint, body, limits)).toMatchObject({ ok: false, status, error });
  });

  describe('keys that name a prototype, wherever the request carries them', () => {
    const track = '{"type":"track","userId":"u","event":"E"}';
    /** Parsed as ingest parses a body, so the scan that gates the key check has seen its text. */
    const request = (endpoint: 'batch' | 'track', text: string) =>
      parseTrackingRequest(endpoint, parseJsonBody(Buffer.from(text), 64), {
        ...limits,
        maxMessageBytes: 10_000,
      });
    const refusedFields = (endpoint: 'batch' | 'track', text: string) => {
      const parsed = request(endpoint, text);
      expect(parsed).toMatchObject({ ok: false, status: 400, error: 'invalid_messages' });
      return parsed.ok
        ? []
        : parsed.errors!.map(({ index, field, reason }) => {
            expect(reason).toMatch(/names a JavaScript prototype and is not accepted/);
            return index === undefined ? field : `${index}:${field}`;
          });
    };

    it.each([
      ['context.__proto__', '"context":{"__proto__":{"x":1}}'],
      ['context.constructor.prototype', '"context":{"constructor":{"prototype":{"x":1}}}'],
      ['integrations.__proto__', '"integrations":{"__proto__":{"x":1}}'],
      ['context.a.b.c.__proto__', '"context":{"a":{"b":{"c":{"__proto__":{"x":1}}}}}'],
      ['context.a.b.c.constructor.prototype', '"context":{"a":{"b":{"c":{"constructor":{"prototype":1}}}}}'],
      ['integrations.a.b.c.__proto__', '"integrations":{"a":{"b":{"c":{"__proto__":true}}}}'],
      ['__proto__', '"__proto__":{"context":{"x":1}}'],
    ])('refuses a batch whose batch-level %s names a prototype, naming the field', (field, fields) => {
      expect(refusedFields('batch', `{"batch":[${track},${track}],${fields}}`)).toEqual([field]);
      expect(request('batch', `{"batch":[${track}],${fields}}`)).toMatchObject({
        message: '1 batch-level field(s) invalid; nothing was accepted',
      });
    });

    it.each([
      ['properties.a.b.__proto__', '"properties":{"a":{"b":{"__proto__":1}}}'],
      ['context.a.b.c.constructor.prototype', '"context":{"a":{"b":{"c":{"constructor":{"prototype":1}}}}}'],
      ['integrations.a.b.c.__proto__', '"integrations":{"a":{"b":{"c":{"__proto__":1}}}}'],
    ])('refuses a message whose %s names a prototype, by index and path in the message', (field, fields) => {
      const hostile = `{"type":"track","userId":"u","event":"E",${fields}}`;
      expect(refusedFields('batch', `{"batch":[${track},${track},${hostile}]}`)).toEqual([`2:${field}`]);
      expect(refusedFields('track', hostile)).toEqual([`0:${field}`]);
    });

    it('reports batch-level fields first, then each message in order, with the other rules of clean messages', () => {
      const parsed = request(
        'batch',
        `{"batch":[{"type":"track","userId":"u"},{"type":"track","userId":"u","event":"E","traits":{"__proto__":1}}],` +
          '"integrations":{"__proto__":1},"context":{"x":{"constructor":{"prototype":1}}}}',
      );
      expect(parsed).toMatchObject({
        ok: false,
        status: 400,
        message: '2 batch-level field(s) and 2 of 2 message(s) invalid; nothing was accepted',
      });
      expect(!parsed.ok && parsed.errors!.map((e) => [e.index, e.field])).toEqual([
        [undefined, 'integrations.__proto__'],
        [undefined, 'context.x.constructor.prototype'],
        [0, 'event'],
        [1, 'traits.__proto__'],
      ]);
    });

    it('accepts constructor and prototype keys that lead to no prototype, at every level', () => {
      const parsed = request(
        'batch',
        '{"batch":[{"type":"track","userId":"u","event":"E","properties":{"constructor":"Ford","prototype":"v2"}}],' +
          '"context":{"constructor":"Ford","a":{"prototype":{"x":1}}},"integrations":{"constructor":{"a":{"prototype":1}}}}',
      );
      expect(parsed).toMatchObject({
        ok: true,
        batch: { context: { constructor: 'Ford' }, integrations: { constructor: { a: { prototype: 1 } } } },
      });
    });
  });
});
