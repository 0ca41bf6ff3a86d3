import { describeTlsFailure } from './connection-check';

const failure = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('describeTlsFailure', () => {
  it.each([
    ['SELF_SIGNED_CERT_IN_CHAIN', /not trusted .*set KAFKA_SSL_CA_FILE/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /not trusted .*set KAFKA_SSL_CA_FILE/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /does not name that host/],
    ['CERT_HAS_EXPIRED', /not valid now/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /does that port serve TLS/],
  ])('names the setting to fix for %s', (code, message) => {
    expect(describeTlsFailure('kafka-1:9093', failure(code))).toMatch(message);
  });

  it('leaves a broker that is merely down to the client’s retries', () => {
    expect(describeTlsFailure('kafka-1:9093', failure('ECONNREFUSED'))).toBeUndefined();
  });
});
