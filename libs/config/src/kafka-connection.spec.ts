import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './settings';
import { KAFKA_CLIENT_SETTINGS, kafkaClientSettingsFromEnv } from './kafka-client-settings';
import { kafkaConnection } from './kafka-connection';
import { loadSettings, settingsClass } from './settings-table';
import { TOPIC_SETTINGS, topicConfigs, topicPolicy, topicSpecs } from './topic-settings';
import { topicNames, topicsOf } from '@switchyard/contracts';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-kafka-settings-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
class TopicAndClient extends settingsClass(KAFKA_CLIENT_SETTINGS, TOPIC_SETTINGS) {}
const plain = { kafkaBrokers: 'b1:9092,b2:9092', kafkaSsl: false, kafkaSslRejectUnauthorized: true };

describe('Kafka connection settings', () => {
  it('describe a plain connection by default', () => {
    expect(kafkaConnection(plain)).toEqual({ brokers: ['b1:9092', 'b2:9092'] });
  });

  it('read the CA, client certificate and key, and a password file without its trailing newline', () => {
    const settings = {
      ...plain,
      kafkaSsl: true,
      kafkaSslCaFile: file('ca.pem', 'CA PEM'),
      kafkaSslCertFile: file('client.pem', 'CERT PEM'),
      kafkaSslKeyFile: file('client.key', 'KEY PEM'),
      kafkaSaslMechanism: 'scram-sha-512' as const,
      kafkaSaslUsername: 'switchyard',
      kafkaSaslPasswordFile: file('password', 's3cret\n'),
    };
    expect(kafkaConnection(settings)).toEqual({
      brokers: ['b1:9092', 'b2:9092'],
      tls: { ca: 'CA PEM', cert: 'CERT PEM', key: 'KEY PEM', rejectUnauthorized: true },
      sasl: { mechanism: 'scram-sha-512', username: 'switchyard', password: 's3cret' },
    });
  });

  it.each([
    ['a CA file without KAFKA_SSL', { KAFKA_SSL_CA_FILE: '/ca.pem' }, /need KAFKA_SSL=true/],
    [
      'a certificate without its key',
      { KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/c.pem' },
      /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE go together/,
    ],
    [
      'a mechanism without a user',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: 'p' },
      /KAFKA_SASL_MECHANISM=plain needs KAFKA_SASL_USERNAME/,
    ],
    [
      'a mechanism without a password',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u' },
      /needs exactly one of KAFKA_SASL_PASSWORD and KAFKA_SASL_PASSWORD_FILE/,
    ],
    [
      'both password and password file',
      {
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'p',
        KAFKA_SASL_PASSWORD_FILE: '/p2',
      },
      /exactly one of/,
    ],
    [
      'credentials without a mechanism',
      { KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' },
      /need KAFKA_SASL_MECHANISM/,
    ],
    [
      'min.insync above the replication factor',
      { KAFKA_REPLICATION_FACTOR: '2', KAFKA_MIN_INSYNC_REPLICAS: '3' },
      /KAFKA_MIN_INSYNC_REPLICAS must not exceed KAFKA_REPLICATION_FACTOR/,
    ],
  ])('refuse %s, naming the variables', (_name, env, message) => {
    const load = () =>
      loadSettings(TopicAndClient, [KAFKA_CLIENT_SETTINGS, TOPIC_SETTINGS], env, 'ingest settings');
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it('name the variable of a file that cannot be read', () => {
    const settings = { ...plain, kafkaSsl: true, kafkaSslCaFile: join(dir, 'missing.pem') };
    expect(() => kafkaConnection(settings)).toThrow(ConfigError);
    expect(() => kafkaConnection(settings)).toThrow(
      /KAFKA_SSL_CA_FILE: cannot read .*missing\.pem \(ENOENT\)/,
    );
  });

  it('never put the password in a problem', () => {
    const env = {
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'hunter2-secret',
      KAFKA_SASL_PASSWORD_FILE: '/p3',
    };
    expect(() => kafkaClientSettingsFromEnv(env)).toThrow(/exactly one of/);
    expect(() => kafkaClientSettingsFromEnv(env)).not.toThrow(/hunter2-secret/);
  });
});

describe('topic settings', () => {
  const settings = {
    kafkaCreateTopics: true,
    kafkaReplicationFactor: 3,
    kafkaMinInsyncReplicas: 2,
    kafkaRetentionMs: 7 * 86_400_000,
    kafkaDeadLetterRetentionMs: 30 * 86_400_000,
    kafkaAttemptsRetentionMs: 2 * 86_400_000,
    kafkaAuditRetentionMs: 400 * 86_400_000,
    topicPartitions: 6,
  };

  it('keep retry tiers for the longest retry window plus the stream retention, dead letters and attempts for their own, and compact the changelog', () => {
    const families = topicConfigs(settings, 4 * 3_600_000);
    expect(families.stream['retention.ms']).toBe(String(7 * 86_400_000));
    expect(families.deadLetter['retention.ms']).toBe(String(30 * 86_400_000));
    // A destination may set a window of up to 72 h, longer than the service's 4 h.
    expect(families.retryTier['retention.ms']).toBe(String(72 * 3_600_000 + 7 * 86_400_000));
    expect(topicConfigs(settings, 7 * 86_400_000).retryTier['retention.ms']).toBe(String(14 * 86_400_000));
    expect(families.attempts['retention.ms']).toBe(String(2 * 86_400_000));
    expect(families.changelog).toEqual({ 'cleanup.policy': 'compact' });
  });

  it("build every service's topics from the one table: same partitions and configs whoever creates them", () => {
    const names = topicNames('ns');
    const specOf = (service: 'ingest' | 'router' | 'delivery' | 'console', topic: string) =>
      topicSpecs(
        topicsOf(service, names, 2).filter((r) => r.partitions !== 'audiences'),
        settings,
        { retryWindowMs: 1000 },
      ).find((s) => s.topic === topic);
    expect(specOf('ingest', names.deletions)).toEqual(specOf('router', names.deletions));
    expect(specOf('ingest', names.deletions)?.numPartitions).toBe(1);
    expect(specOf('delivery', names.deliveryAttempts)).toEqual(specOf('console', names.deliveryAttempts));
    expect(specOf('router', names.deliveries)).toEqual({
      topic: 'ns.deliveries.v1',
      numPartitions: 6,
      configs: { 'cleanup.policy': 'delete', 'retention.ms': String(7 * 86_400_000) },
    });
    expect(topicsOf('delivery', names, 2).map((r) => r.name)).toEqual([
      'ns.deliveries.v1',
      'ns.deliveries.retry.1.v1',
      'ns.deliveries.retry.2.v1',
      'ns.deliveries.dead.v1',
      'ns.deliveries.attempts.v1',
      'ns.workspace.v1',
    ]);
    expect(topicsOf('ingest', names).map((r) => r.name)).toEqual([
      'ns.events.ingested.v1',
      'ns.audiences.synced.v1',
      'ns.deletions.requested.v1',
      'ns.workspace.v1',
    ]);
  });

  it('refuse to size the changelog without the audiences partition count', () => {
    const changelog = topicsOf('router', topicNames('ns')).filter((r) => r.partitions === 'audiences');
    expect(() => topicSpecs(changelog, settings)).toThrow(/audiences topic's partition count/);
    expect(topicSpecs(changelog, settings, { audiencesPartitions: 4 })[0]).toEqual({
      topic: 'ns.audiences.membership.v1',
      numPartitions: 4,
      configs: { 'cleanup.policy': 'compact' },
    });
  });

  it('pass the replication settings and the create switch to the topic admin', () => {
    expect(topicPolicy(settings)).toEqual({ create: true, replicationFactor: 3, minInsyncReplicas: 2 });
    expect(
      topicPolicy({
        ...settings,
        kafkaCreateTopics: false,
        kafkaReplicationFactor: undefined,
        kafkaMinInsyncReplicas: undefined,
      }),
    ).toEqual({ create: false });
  });
});
