/**
 * What one answer (a status) or failure (an error) of a webhook request means for the job.
 * Decided here and nowhere else; `classify-outcome.spec.ts` walks the table row by row.
 */
export type Verdict =
  | { verdict: 'delivered' }
  | { verdict: 'retry'; reason: string; errorKind: RetryableKind }
  | { verdict: 'permanent'; reason: string };

export type RetryableKind = 'status' | 'timeout' | 'connection' | 'dns' | 'circuit-open' | 'unknown';

/** Error code our HTTP client gives a request that ran out of its time (whole response, not just headers). */
export const TIMEOUT_ERROR_CODE = 'ERR_WEBHOOK_TIMEOUT';
/** Error code of a connection refused by the SSRF guard. */
export const PRIVATE_ADDRESS_ERROR_CODE = 'ERR_WEBHOOK_PRIVATE_ADDRESS';
/** Error code of a request not sent because the URL's circuit is open. */
export const CIRCUIT_OPEN_ERROR_CODE = 'ERR_WEBHOOK_CIRCUIT_OPEN';

const TIMEOUT_CODES = new Set([
  TIMEOUT_ERROR_CODE,
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);
/** Certificate and handshake failures: retrying cannot fix a certificate, and no body was sent. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
]);

export function classifyOutcome(statusOrError: number | unknown): Verdict {
  return typeof statusOrError === 'number' ? classifyStatus(statusOrError) : classifyError(statusOrError);
}

function classifyStatus(status: number): Verdict {
  if (status >= 200 && status < 300) return { verdict: 'delivered' };
  if (status >= 500 && status < 600)
    return { verdict: 'retry', reason: `HTTP ${status}`, errorKind: 'status' };
  if (status === 408) return { verdict: 'retry', reason: 'HTTP 408 (request timeout)', errorKind: 'status' };
  if (status === 429)
    return { verdict: 'retry', reason: 'HTTP 429 (too many requests)', errorKind: 'status' };
  // Following a redirect would send a signed body, and maybe static credentials, to a URL the user did not configure.
  if (status >= 300 && status < 400)
    return { verdict: 'permanent', reason: `HTTP ${status}: redirect not followed` };
  if (status >= 400 && status < 500) return { verdict: 'permanent', reason: `HTTP ${status}` };
  return { verdict: 'permanent', reason: `HTTP ${status}: unexpected status` };
}

function classifyError(error: unknown): Verdict {
  const code = errorCode(error);
  const detail = errorMessage(error);
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_SSL_'))) {
    return { verdict: 'permanent', reason: `TLS error (${code}): ${detail}; no request sent` };
  }
  if (code === PRIVATE_ADDRESS_ERROR_CODE) return { verdict: 'permanent', reason: detail };
  if (code && TIMEOUT_CODES.has(code))
    return { verdict: 'retry', reason: `timeout: ${detail}`, errorKind: 'timeout' };
  if (code && CONNECTION_CODES.has(code))
    return { verdict: 'retry', reason: `connection error (${code}): ${detail}`, errorKind: 'connection' };
  if (code && DNS_CODES.has(code))
    return { verdict: 'retry', reason: `DNS failure (${code}): ${detail}`, errorKind: 'dns' };
  if (code === CIRCUIT_OPEN_ERROR_CODE)
    return { verdict: 'retry', reason: detail, errorKind: 'circuit-open' };
  // Unknown failures are retried: the window bounds the cost, and dropping a deliverable job would be worse.
  return { verdict: 'retry', reason: `error${code ? ` (${code})` : ''}: ${detail}`, errorKind: 'unknown' };
}

/** undici sometimes wraps the socket's error in `cause`; the most specific code wins. */
function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  const pick = (c: unknown) => (typeof c === 'string' ? c : undefined);
  return pick(cause) ?? pick(own);
}

function errorMessage(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown } } | null)?.cause?.message;
  const own = (error as { message?: unknown } | null)?.message;
  return String(typeof cause === 'string' ? cause : (own ?? error));
}
