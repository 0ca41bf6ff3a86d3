import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { LOCAL_KAFKA_BROKERS, LOCAL_KAFKA_PORT, localKafkaBrokers } from '@switchyard/config';

describe('the local broker', () => {
  it('is found by shell scripts at the port TypeScript defines', () => {
    const port = execFileSync('bash', [join(__dirname, 'local-kafka-port.sh')], { encoding: 'utf8' });
    expect(port).toBe(`${LOCAL_KAFKA_PORT}\n`);
  });

  it('is what services use without KAFKA_BROKERS, and tools unless KAFKA_BROKERS or KAFKA_PORT say otherwise', () => {
    expect(LOCAL_KAFKA_BROKERS).toBe(`localhost:${LOCAL_KAFKA_PORT}`);
    expect(localKafkaBrokers({})).toBe(`127.0.0.1:${LOCAL_KAFKA_PORT}`);
    expect(localKafkaBrokers({ KAFKA_PORT: '19092' })).toBe('127.0.0.1:19092');
    expect(localKafkaBrokers({ KAFKA_BROKERS: 'kafka:9093', KAFKA_PORT: '19092' })).toBe('kafka:9093');
  });
});
