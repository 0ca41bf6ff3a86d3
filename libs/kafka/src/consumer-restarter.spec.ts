import { EventEmitter } from 'node:events';
import pino from 'pino';
import type { ConsumerRunOptions } from './kafka-port';
import { ConsumerRestarter } from './consumer-restarter';
import type { CommitTimer } from './offset-committer';

/** A consumer whose crashes and joins are emitted by hand; `runs` counts kafkajs `run` calls. */
function fakeConsumer() {
  const emitter = new EventEmitter();
  const consumer = {
    runs: [] as ConsumerRunOptions[],
    failNextRun: false,
    events: { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' },
    on: (event: string, listener: (e: unknown) => void) => emitter.on(event, listener),
    run: async (config: ConsumerRunOptions) => {
      consumer.runs.push(config);
      if (consumer.failNextRun) {
        consumer.failNextRun = false;
        throw new Error('cannot run');
      }
    },
    crash: (restart: boolean, error: Error = new Error('crashed')) =>
      emitter.emit('consumer.crash', { payload: { error, groupId: 'g', restart } }),
    join: () => emitter.emit('consumer.group_join', { payload: {} }),
  };
  return consumer;
}

/** Timers fired by hand; `delays` lists what was scheduled. */
function handTimer(): CommitTimer & { fire(): Promise<void>; delays: number[]; pending: number } {
  const queue: (() => void)[] = [];
  return {
    delays: [],
    get pending() {
      return queue.length;
    },
    schedule(ms, fn) {
      this.delays.push(ms);
      queue.push(fn);
      return () => queue.splice(queue.indexOf(fn), 1);
    },
    async fire() {
      queue.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

function restarterOn(
  consumer: ReturnType<typeof fakeConsumer>,
  timer: CommitTimer,
  logger = pino({ level: 'silent' }),
) {
  const config: ConsumerRunOptions = { eachMessage: async () => undefined };
  return {
    config,
    restarter: new ConsumerRestarter(
      consumer as never,
      config,
      'group-a',
      logger,
      { initialMs: 100, maxMs: 350 },
      timer,
    ),
  };
}

describe('ConsumerRestarter', () => {
  it('restarts with the same configuration after a crash kafkajs does not restart after, and logs the cause once', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const logged: unknown[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const { config, restarter } = restarterOn(consumer, timer, logger);
    await restarter.run();

    const cause = new TypeError('x is undefined');
    consumer.crash(false, Object.assign(new Error('wrapped'), { cause }));
    expect(timer.delays).toEqual([100]);
    await timer.fire();

    expect(consumer.runs).toEqual([config, config]);
    expect(logged).toEqual([
      expect.objectContaining({
        consumer: 'group-a',
        reason: 'wrapped',
        cause: 'x is undefined',
        restartInMs: 100,
      }),
    ]);
  });

  it('leaves a crash kafkajs restarts itself alone', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const { restarter } = restarterOn(consumer, timer);
    await restarter.run();
    consumer.crash(true);
    expect(timer.pending).toBe(0);
    expect(consumer.runs).toHaveLength(1);
  });

  it('waits longer after each crash, up to the bound, and from the start again once the group is joined', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const { restarter } = restarterOn(consumer, timer);
    await restarter.run();
    for (let i = 0; i < 4; i++) {
      consumer.crash(false);
      await timer.fire();
    }
    consumer.join();
    consumer.crash(false);
    expect(timer.delays).toEqual([100, 200, 350, 350, 100]);
  });

  it('tries again when a restart throws', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const { restarter } = restarterOn(consumer, timer);
    await restarter.run();
    consumer.failNextRun = true;
    consumer.crash(false);
    await timer.fire();
    expect(timer.pending).toBe(1);
    await timer.fire();
    expect(consumer.runs).toHaveLength(3);
  });

  it('restarts nothing once stopped', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const { restarter } = restarterOn(consumer, timer);
    await restarter.run();
    consumer.crash(false);
    await restarter.stop();
    expect(timer.pending).toBe(0);
    consumer.crash(false);
    expect(timer.pending).toBe(0);
    expect(consumer.runs).toHaveLength(1);
  });
});

describe('ConsumerRestarter during a broker outage', () => {
  it('warns once that kafkajs restarts a consumer that spent its retries, with the delay, and logs its return with the outage’s length', async () => {
    const consumer = fakeConsumer();
    const timer = handTimer();
    const logged: Array<{ level: number; msg: string; restartInMs?: number; outageSeconds?: number }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const { restarter } = restarterOn(consumer, timer, logger);
    await restarter.run();

    const spent = () =>
      Object.assign(new Error('Connection error: connect ECONNREFUSED'), {
        name: 'KafkaJSNumberOfRetriesExceeded',
        retryTime: 800,
      });
    consumer.crash(true, spent());
    consumer.crash(true, spent());
    consumer.join();

    expect(timer.pending).toBe(0);
    expect(logged.map((l) => pino.levels.labels[l.level])).toEqual(['warn', 'info']);
    expect(logged[0]).toMatchObject({ consumer: 'group-a', restartInMs: 800 });
    expect(logged[1]).toMatchObject({ client: 'group-a', outageSeconds: expect.any(Number) });
  });
});
