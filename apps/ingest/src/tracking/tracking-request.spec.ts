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
});
