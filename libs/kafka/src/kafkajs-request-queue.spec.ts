import { createRequire } from 'node:module';

/**
 * patches/kafkajs+2.2.4.patch, connection side: a connection's request queue sets a timer only
 * while requests wait. kafkajs scheduled a check after every request even with none waiting, with
 * a negative delay, so every idle connection ran a timer each millisecond for as long as it was
 * open (CPU and garbage in every service, idle or not). Its check for timed-out requests ran every
 * 100 ms on every connection, a wake-up at each tick of each one; one timer now waits for the
 * earliest deadline of a request in flight.
 */
const load = createRequire(__filename);
interface Queue {
  push(request: {
    entry: { correlationId: number; resolve(): void; reject(error: Error): void };
    expectResponse: boolean;
    sendRequest(): void;
  }): void;
  fulfillRequest(response: { correlationId: number; payload: Buffer; size: number }): void;
  maybeThrottle(ms: number): void;
  scheduleRequestTimeoutCheck(): void;
  destroy(): void;
}
const RequestQueue = load('kafkajs/src/network/requestQueue') as new (options: object) => Queue;
const { createLogger, LEVELS } = load('kafkajs/src/loggers') as {
  createLogger(options: { level: number; logCreator: () => () => void }): {
    namespace(name: string): unknown;
  };
  LEVELS: { NOTHING: number };
};
const InstrumentationEmitter = load('kafkajs/src/instrumentation/emitter') as new () => object;

function requestQueue(maxInFlightRequests?: number, enforceRequestTimeout = false): Queue {
  return new RequestQueue({
    instrumentationEmitter: new InstrumentationEmitter(),
    maxInFlightRequests,
    requestTimeout: REQUEST_TIMEOUT_MS,
    enforceRequestTimeout,
    clientId: 'test',
    broker: 'localhost:9092',
    logger: createLogger({ level: LEVELS.NOTHING, logCreator: () => () => undefined }).namespace(
      'RequestQueue',
    ),
  });
}
const REQUEST_TIMEOUT_MS = 30_000;

/** The broker's answer to request `correlationId`. */
const answer = (queue: Queue, correlationId: number) =>
  queue.fulfillRequest({ correlationId, payload: Buffer.alloc(0), size: 0 });

const request = (correlationId: number, sent: number[], failures: string[] = []) => ({
  entry: {
    correlationId,
    resolve: () => undefined,
    reject: (error: Error) => failures.push(`${correlationId}: ${error.name}`),
  },
  expectResponse: true,
  sendRequest: () => sent.push(correlationId),
});

describe('the patched kafkajs request queue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps no timer once its requests are answered', () => {
    const queue = requestQueue();
    const sent: number[] = [];
    queue.push(request(1, sent));
    answer(queue, 1);

    expect(sent).toEqual([1]);
    expect(jest.getTimerCount()).toBe(0);
    queue.destroy();
  });

  it('still sends a request that waited for room once an earlier one is answered', () => {
    const queue = requestQueue(1);
    const sent: number[] = [];
    queue.push(request(1, sent));
    queue.push(request(2, sent));
    expect(sent).toEqual([1]);

    answer(queue, 1);
    expect(sent).toEqual([1, 2]);
    answer(queue, 2);
    jest.runOnlyPendingTimers();
    expect(jest.getTimerCount()).toBe(0);
    queue.destroy();
  });

  it('still sends a request that waited out a broker throttle', () => {
    const queue = requestQueue();
    const sent: number[] = [];
    queue.maybeThrottle(50);
    queue.push(request(1, sent));
    expect(sent).toEqual([]);

    jest.advanceTimersByTime(60);
    expect(sent).toEqual([1]);
    queue.destroy();
  });

  describe('timeouts', () => {
    it('fails a request at its deadline, with one timer for all the requests in flight', () => {
      const queue = requestQueue(undefined, true);
      queue.scheduleRequestTimeoutCheck();
      const failures: string[] = [];
      const start = Date.now();
      queue.push(request(1, [], failures));
      jest.advanceTimersByTime(10_000);
      queue.push(request(2, [], failures));
      expect(jest.getTimerCount()).toBe(1);

      jest.advanceTimersToNextTimer();
      expect(Date.now() - start).toBe(REQUEST_TIMEOUT_MS);
      expect(failures).toEqual(['1: KafkaJSRequestTimeoutError']);

      jest.advanceTimersToNextTimer();
      expect(Date.now() - start).toBe(10_000 + REQUEST_TIMEOUT_MS);
      expect(failures).toEqual(['1: KafkaJSRequestTimeoutError', '2: KafkaJSRequestTimeoutError']);
      expect(jest.getTimerCount()).toBe(0);
      queue.destroy();
    });

    it('wakes an idle connection at most once after its last answer, and fails nothing answered', () => {
      const queue = requestQueue(undefined, true);
      const failures: string[] = [];
      queue.push(request(1, [], failures));
      answer(queue, 1);
      jest.advanceTimersToNextTimer();
      expect(jest.getTimerCount()).toBe(0);
      expect(failures).toEqual([]);
      queue.destroy();
    });

    it('looks again at the next deadline when the one it waited for was answered', () => {
      const queue = requestQueue(undefined, true);
      const failures: string[] = [];
      const start = Date.now();
      queue.push(request(1, [], failures));
      jest.advanceTimersByTime(5_000);
      queue.push(request(2, [], failures));
      answer(queue, 1);

      jest.advanceTimersToNextTimer();
      expect(failures).toEqual([]);
      jest.advanceTimersToNextTimer();
      expect(Date.now() - start).toBe(5_000 + REQUEST_TIMEOUT_MS);
      expect(failures).toEqual(['2: KafkaJSRequestTimeoutError']);
      queue.destroy();
    });
  });
});
