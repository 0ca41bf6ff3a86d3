import { logLevel } from 'kafkajs';
import pino from 'pino';
import { kafkaLogCreator } from './kafka-log';

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const log = kafkaLogCreator(logger)(logLevel.DEBUG);
  const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}) =>
    log({ namespace: 'test', level, label: '', log: { timestamp: '', message, ...extra } });
  const levelsOf = (msg: string) =>
    lines.filter((l) => l.msg === msg).map((l) => pino.levels.labels[l.level]);
  return { lines, entry, levelsOf };
}

describe('kafkaLogCreator', () => {
  it('keeps a broker error response that kafkajs retries at debug, and a final one at warn', () => {
    const { entry, levelsOf } = capture();
    entry(logLevel.ERROR, 'Response Metadata(key: 3, version: 6)', {
      error: 'This server does not host this topic-partition',
    });
    entry(logLevel.ERROR, 'Response CreateTopics(key: 19, version: 3)', { error: 'Topic creation errors' });
    entry(logLevel.ERROR, 'Response SaslAuthenticate(key: 36, version: 1)', {
      error: 'Request is not valid given the current SASL state',
    });
    expect(levelsOf('Response Metadata(key: 3, version: 6)')).toEqual(['debug']);
    expect(levelsOf('Response CreateTopics(key: 19, version: 3)')).toEqual(['debug']);
    expect(levelsOf('Response SaslAuthenticate(key: 36, version: 1)')).toEqual(['warn']);
  });

  it('warns, without an error, when the group dropped this member and kafkajs rejoins', () => {
    const { entry, levelsOf } = capture();
    const dropped = 'The coordinator is not aware of this member, re-joining the group';
    entry(logLevel.ERROR, dropped, { groupId: 'g' });
    expect(levelsOf(dropped)).toEqual(['warn']);
  });

  it('keeps a producer try that kafkajs retries at debug', () => {
    const { entry, levelsOf } = capture();
    const concurrent =
      'Failed to send messages: The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing';
    entry(logLevel.ERROR, concurrent, { retryCount: 0 });
    entry(logLevel.ERROR, 'Failed to send messages: Topic authorization failed', { retryCount: 0 });
    expect(levelsOf(concurrent)).toEqual(['debug']);
    expect(levelsOf('Failed to send messages: Topic authorization failed')).toEqual(['error']);
  });

  it('says once, at info, that it waits for a broker that is still loading; a crash that does not heal stays an error', () => {
    const { entry, lines, levelsOf } = capture();
    const loading =
      "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group";
    entry(logLevel.ERROR, loading);
    entry(logLevel.ERROR, 'Restarting the consumer in 300ms');
    entry(logLevel.ERROR, loading);
    entry(logLevel.ERROR, 'Crash: KafkaJSNonRetriableError: Topic authorization failed');
    expect(levelsOf('waiting for Kafka to be ready; the consumer restarts by itself')).toEqual(['info']);
    expect(levelsOf(loading)).toEqual(['debug']);
    expect(levelsOf('Restarting the consumer in 300ms')).toEqual(['debug']);
    expect(levelsOf('Crash: KafkaJSNonRetriableError: Topic authorization failed')).toEqual(['error']);
    expect(lines.filter((l) => l.level >= pino.levels.values.warn)).toHaveLength(1);
  });

  it('explains the idempotent producer retry warning once, at info', () => {
    const { entry, lines } = capture();
    for (let i = 0; i < 3; i++)
      entry(logLevel.WARN, 'Limiting retries for the idempotent producer may invalidate EoS guarantees');
    expect(lines).toHaveLength(1);
    expect(pino.levels.labels[lines[0].level]).toBe('info');
    expect(lines[0].msg).toContain('replayed');
  });

  it('keeps the tries against a broker that is away at debug: the client warns once per outage instead', () => {
    const { entry, lines } = capture();
    entry(
      logLevel.ERROR,
      'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:9',
      { retryCount: 7 },
    );
    entry(logLevel.ERROR, 'Failed to send messages: Connection error: connect ECONNREFUSED 127.0.0.1:9', {
      retryCount: 0,
    });
    entry(
      logLevel.ERROR,
      'Crash: KafkaJSNumberOfRetriesExceeded: Connection error: connect ECONNREFUSED 127.0.0.1:9',
    );
    entry(
      logLevel.ERROR,
      'Crash: KafkaJSNonRetriableError: Connection error: connect ECONNREFUSED 127.0.0.1:9',
    );
    entry(logLevel.ERROR, 'Restarting the consumer in 1000ms');
    expect(lines.map((l) => pino.levels.labels[l.level])).toEqual([
      'debug',
      'debug',
      'debug',
      'debug',
      'debug',
    ]);
  });
});
