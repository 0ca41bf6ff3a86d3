import {
  CIRCUIT_OPEN_ERROR_CODE,
  classifyOutcome,
  PRIVATE_ADDRESS_ERROR_CODE,
  TIMEOUT_ERROR_CODE,
} from './classify-outcome';

const error = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
const wrapped = (code: string) => Object.assign(new Error('fetch failed'), { cause: error(code, 'inner') });

/** The retry matrix. Each row: id, input, expected verdict, and a fragment of the reason ('' when there is none). */
const rows: Array<[string, unknown, 'delivered' | 'retry' | 'permanent', string]> = [
  ['T01 200 OK', 200, 'delivered', ''],
  ['T02 204 No Content', 204, 'delivered', ''],
  ['T03 299, still 2xx', 299, 'delivered', ''],
  ['T04 500', 500, 'retry', 'HTTP 500'],
  ['T05 503', 503, 'retry', 'HTTP 503'],
  ['T06 599', 599, 'retry', 'HTTP 599'],
  ['T07 408 request timeout', 408, 'retry', '408'],
  ['T08 429 too many requests', 429, 'retry', '429'],
  ['T09 400', 400, 'permanent', 'HTTP 400'],
  ['T10 401', 401, 'permanent', 'HTTP 401'],
  ['T11 404', 404, 'permanent', 'HTTP 404'],
  ['T12 410', 410, 'permanent', 'HTTP 410'],
  ['T13 301 redirect', 301, 'permanent', 'redirect not followed'],
  ['T14 307 redirect', 307, 'permanent', 'redirect not followed'],
  ['T15 304', 304, 'permanent', 'redirect not followed'],
  ['T16 status outside 2xx-5xx', 600, 'permanent', 'unexpected status'],
  ['T17 our whole-response timeout', error(TIMEOUT_ERROR_CODE), 'retry', 'timeout'],
  ['T18 undici headers timeout', error('UND_ERR_HEADERS_TIMEOUT'), 'retry', 'timeout'],
  ['T19 undici connect timeout', error('UND_ERR_CONNECT_TIMEOUT'), 'retry', 'timeout'],
  ['T20 connection refused', error('ECONNREFUSED'), 'retry', 'ECONNREFUSED'],
  ['T21 connection reset', error('ECONNRESET'), 'retry', 'ECONNRESET'],
  ['T22 socket closed by peer (undici)', error('UND_ERR_SOCKET'), 'retry', 'connection error'],
  ['T23 DNS name not found', error('ENOTFOUND'), 'retry', 'DNS failure'],
  ['T24 DNS temporary failure', error('EAI_AGAIN'), 'retry', 'DNS failure'],
  [
    'T25 self-signed certificate',
    error('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    'permanent',
    'TLS error (DEPTH_ZERO_SELF_SIGNED_CERT)',
  ],
  ['T26 self-signed certificate in chain', error('SELF_SIGNED_CERT_IN_CHAIN'), 'permanent', 'TLS error'],
  ['T27 expired certificate', error('CERT_HAS_EXPIRED'), 'permanent', 'no request sent'],
  ['T28 host name mismatch', error('ERR_TLS_CERT_ALTNAME_INVALID'), 'permanent', 'TLS error'],
  ['T29 any OpenSSL error', error('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'), 'permanent', 'TLS error'],
  ['T30 TLS error wrapped in cause', wrapped('DEPTH_ZERO_SELF_SIGNED_CERT'), 'permanent', 'TLS error'],
  ['T31 refused wrapped in cause', wrapped('ECONNREFUSED'), 'retry', 'ECONNREFUSED'],
  [
    'T32 SSRF guard refused the address',
    error(PRIVATE_ADDRESS_ERROR_CODE, 'address 10.0.0.1 is private'),
    'permanent',
    '10.0.0.1',
  ],
  ['T33 circuit open', error(CIRCUIT_OPEN_ERROR_CODE, 'circuit open'), 'retry', 'circuit open'],
  ['T34 unknown error code', error('EWHATEVER'), 'retry', 'EWHATEVER'],
  ['T35 not even an Error', 'weird', 'retry', 'weird'],
];

describe('classifyOutcome', () => {
  it.each(rows)('%s', (_id, input, verdict, reason) => {
    const result = classifyOutcome(input);
    expect(result.verdict).toBe(verdict);
    if (reason) expect('reason' in result && result.reason).toContain(reason);
  });
});
