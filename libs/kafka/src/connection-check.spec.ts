import { describeTlsFailure, explainConnectFailure } from './connection-check';

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

describe('explainConnectFailure', () => {
  const tls = { brokers: ['kafka-1:9093'], tls: { rejectUnauthorized: true } };
  const sasl = {
    ...tls,
    sasl: { mechanism: 'scram-sha-512' as const, username: 'switchyard', password: 'pw' },
  };

  it('names the SASL user, mechanism and variables when authentication fails', () => {
    const error = Object.assign(new Error('SASL SCRAM SHA512 authentication failed: invalid credentials'), {
      name: 'KafkaJSSASLAuthenticationError',
    });
    expect(explainConnectFailure(error, sasl).message).toMatch(
      /SASL authentication failed for user "switchyard" with scram-sha-512: .*check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD/,
    );
  });

  it('names the mTLS variables when the broker refuses the client certificate', () => {
    const error = new Error('Connection error: ssl3_read_bytes:ssl/tls alert bad certificate');
    expect(explainConnectFailure(error, tls).message).toMatch(
      /refused no client certificate .*set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE/,
    );
  });

  it('says which protocol the client spoke when the broker hangs up', () => {
    expect(explainConnectFailure(new Error('Closed connection'), sasl).message).toMatch(/speak SASL_SSL/);
  });

  it('passes other errors unchanged', () => {
    const error = new Error('Connection error: connect ECONNREFUSED');
    expect(explainConnectFailure(error, tls)).toBe(error);
  });
});
