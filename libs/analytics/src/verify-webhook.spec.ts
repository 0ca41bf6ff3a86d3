import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook, WebhookSignatureScheme } from './verify-webhook';

interface Check {
  secret: string;
  scheme?: WebhookSignatureScheme;
  nowSeconds: number;
  tamper?: boolean;
  valid: boolean;
  reason?: string;
}
interface SignedRequest {
  name: string;
  body: string;
  headers: Record<string, string>;
  checks: Check[];
}

/** Requests as the pipeline's signer makes them (its tests pin them), shared with the Go client's tests. */
const requests: SignedRequest[] = JSON.parse(
  readFileSync(join(__dirname, '../../../clients/go/testdata/webhook-signatures.json'), 'utf8'),
).requests;
const tampered = (body: string) => body.replace('Order Completed', 'Order Refunded');

describe('verifyWebhook', () => {
  const cases = requests.flatMap((request) =>
    request.checks.map((check) => [
      `${request.name}: ${check.valid ? 'accepts' : `refuses (${check.reason})`} ${JSON.stringify({ ...check, valid: undefined, reason: undefined })}`,
      request,
      check,
    ]),
  ) as Array<[string, SignedRequest, Check]>;

  it.each(cases)('%s', (_name, request, check) => {
    const body = check.tamper ? tampered(request.body) : request.body;
    const result = verifyWebhook(Buffer.from(body), request.headers, check.secret, {
      scheme: check.scheme,
      now: () => check.nowSeconds * 1000,
    });
    expect(result).toEqual(check.valid ? { valid: true } : { valid: false, reason: check.reason });
  });

  const standard = requests.find((r) => r.name === 'standard-webhooks')!;
  const secret = standard.checks[0].secret;
  const sentAt = Number(standard.headers['webhook-timestamp']) * 1000;

  it('tampers for real: the tampered body differs from the signed one', () => {
    for (const request of requests) expect(tampered(request.body)).not.toBe(request.body);
  });

  it('reads fetch Headers, mixed-case names and repeated values alike', () => {
    const upper = Object.fromEntries(
      Object.entries(standard.headers).map(([k, v]) => [k.toUpperCase(), [v]]),
    );
    for (const headers of [new Headers(standard.headers), upper])
      expect(verifyWebhook(standard.body, headers, secret, { now: () => sentAt })).toEqual({ valid: true });
  });

  it('refuses a body re-serialised as another language writes it, which is why the raw body is required', () => {
    // Python's json.dumps writes the number 1e-7 as 1e-07: the same JSON value, other bytes.
    const asPythonWritesIt = standard.body.replace('1e-7', '1e-07');
    expect(JSON.parse(asPythonWritesIt)).toEqual(JSON.parse(standard.body));
    expect(verifyWebhook(asPythonWritesIt, standard.headers, secret, { now: () => sentAt })).toEqual({
      valid: false,
      reason: 'signature-mismatch',
    });
  });

  it('applies a tolerance of its caller', () => {
    const later = () => sentAt + 60_000;
    expect(
      verifyWebhook(standard.body, standard.headers, secret, { now: later, toleranceSeconds: 59 }),
    ).toEqual({
      valid: false,
      reason: 'timestamp-out-of-tolerance',
    });
    expect(
      verifyWebhook(standard.body, standard.headers, secret, { now: later, toleranceSeconds: 60 }),
    ).toEqual({
      valid: true,
    });
  });

  it('refuses a timestamp that is not epoch seconds, and a signature of another version', () => {
    const now = () => sentAt;
    const headers = { ...standard.headers, 'webhook-timestamp': '2026-01-01T00:00:00Z' };
    expect(verifyWebhook(standard.body, headers, secret, { now })).toEqual({
      valid: false,
      reason: 'invalid-timestamp',
    });
    const v2 = {
      ...standard.headers,
      'webhook-signature': standard.headers['webhook-signature'].replace('v1,', 'v2,'),
    };
    expect(verifyWebhook(standard.body, v2, secret, { now })).toEqual({
      valid: false,
      reason: 'signature-mismatch',
    });
  });

  it('refuses a malformed X-Signature as a mismatch and an absent one as missing', () => {
    expect(verifyWebhook('{}', { 'x-signature': 'zz' }, 'secret')).toEqual({
      valid: false,
      reason: 'signature-mismatch',
    });
    expect(verifyWebhook('{}', {}, 'secret')).toEqual({ valid: false, reason: 'missing-signature' });
  });
});
