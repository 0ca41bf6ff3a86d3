import pino from 'pino';
import { decodeDeliveryAttempts, DeliveryAttempt } from '@switchyard/contracts';
import type { BatchingProducer, OutgoingRecord } from '@switchyard/kafka';
import { DeliveryMetrics } from '../delivery-metrics';
import { ReadyJob } from '../delivery-vocabulary';
import { AttemptLog, ATTEMPTS_RECORD_BYTES } from './attempt-log';
import { attemptRecords } from './attempt-records';

const job: ReadyJob = {
  jobId: 'm1:d1',
  destinationId: 'd1',
  sourceId: 's1',
  messageId: 'm1',
  body: Buffer.from(
    JSON.stringify({ type: 'track', event: 'Order Completed', userId: 'u1', anonymousId: 'a1' }),
  ),
};
const state = { attempt: 1, replays: 0, firstAttemptAt: 0 };

describe('attemptRecords', () => {
  it('writes one record per URL tried: the failed one moves on, the last one carries the job outcome', () => {
    const records = attemptRecords({
      job,
      nowMs: 50,
      step: { kind: 'delivered', state },
      result: {
        verdict: 'delivered',
        url: 'https://b.example:8443/hook',
        status: 200,
        request: { urlIndex: 1, startedAt: 20, durationMs: 5, status: 200 },
        failures: [
          {
            urlIndex: 0,
            startedAt: 0,
            durationMs: 19,
            status: 500,
            responseBody: Buffer.from('down'),
            url: 'https://u:p@a.example/hook?token=secret',
            verdict: 'retry',
            reason: 'HTTP 500',
            errorKind: 'status',
          },
        ],
      },
    });
    const call = {
      destinationId: 'd1',
      messageId: 'm1',
      sourceId: 's1',
      userId: 'u1',
      anonymousId: 'a1',
      type: 'track',
      event: 'Order Completed',
      attempt: 1,
    };
    expect(records).toEqual<DeliveryAttempt[]>([
      {
        ...call,
        urlIndex: 0,
        urlHost: 'a.example',
        status: 500,
        errorKind: 'status',
        error: 'HTTP 500',
        durationMs: 19,
        at: 0,
        outcome: 'next-url',
        responseBody: 'down',
      },
      {
        ...call,
        urlIndex: 1,
        urlHost: 'b.example:8443',
        status: 200,
        errorKind: undefined,
        error: undefined,
        durationMs: 5,
        at: 20,
        outcome: 'delivered',
        responseBody: undefined,
      },
    ]);
    expect(JSON.stringify(records)).not.toContain('secret');
  });

  it('records an undeliverable job as its next attempt, dead-lettered without a URL', () => {
    const [record] = attemptRecords({
      job,
      nowMs: 7,
      step: {
        kind: 'dead',
        failure: 'destination-disabled',
        state: { ...state, lastError: 'destination d1 is disabled' },
      },
    });
    expect(record).toMatchObject({
      attempt: 2,
      errorKind: 'undeliverable',
      error: 'destination d1 is disabled',
      outcome: 'dead-lettered',
    });
    expect(record).not.toHaveProperty('urlIndex');
  });
});

describe('AttemptLog', () => {
  const attempt = attemptRecords({
    job,
    nowMs: 0,
    step: { kind: 'dead', failure: 'destination-disabled', state },
  });
  const lost = async (reason: string) =>
    (await new DeliveryMetrics().attemptRecordsLost.get()).values.find((v) => v.labels.reason === reason)
      ?.value ?? 0;
  /** A batching producer whose sends settle only when the test says. */
  const scriptedBatching = () => {
    const sent: Array<{ records: OutgoingRecord[]; settle: (error?: Error) => void }> = [];
    const batching = {
      send: (records: OutgoingRecord[]) =>
        new Promise<void>((resolve, reject) =>
          sent.push({ records, settle: (error) => (error ? reject(error) : resolve()) }),
        ),
      drain: async () => undefined,
    } as unknown as BatchingProducer;
    return { sent, batching };
  };

  it('packs attempts into one record, never throws nor waits on a failing topic, and counts what it could not write', async () => {
    const { sent, batching } = scriptedBatching();
    const log = new AttemptLog(
      batching,
      'ns.deliveries.attempts.v1',
      new DeliveryMetrics(),
      pino({ level: 'silent' }),
      2,
    );
    const before = { failed: await lost('produce-failed'), backlog: await lost('backlog') };
    log.record(attempt);
    log.record(attempt);
    log.record(attempt);
    await log.drain();
    expect(sent).toHaveLength(1);
    expect(sent[0].records).toEqual([
      { topic: 'ns.deliveries.attempts.v1', key: null, value: expect.any(Buffer) },
    ]);
    expect(decodeDeliveryAttempts(sent[0].records[0].value as Buffer).attempts).toEqual([
      ...attempt,
      ...attempt,
    ]);
    expect(await lost('backlog')).toBe(before.backlog + 1);
    sent[0].settle(new Error('topic gone'));
    await new Promise(setImmediate);
    expect(await lost('produce-failed')).toBe(before.failed + 2);
    // The failed ones no longer count as pending: the next attempt is taken.
    log.record(attempt);
    await log.drain();
    expect(sent).toHaveLength(2);
  });

  it('writes a full record at once, without waiting for the linger', () => {
    const { sent, batching } = scriptedBatching();
    const log = new AttemptLog(batching, 't', new DeliveryMetrics(), pino({ level: 'silent' }));
    let recorded = 0;
    while (sent.length === 0) {
      log.record(attempt);
      recorded++;
    }
    const value = sent[0].records[0].value as Buffer;
    expect(value.length).toBeLessThanOrEqual(ATTEMPTS_RECORD_BYTES);
    expect(value.length).toBeGreaterThan(ATTEMPTS_RECORD_BYTES - 1024);
    // The attempt that did not fit starts the next record.
    expect(decodeDeliveryAttempts(value).attempts).toHaveLength(recorded - 1);
  });
});
