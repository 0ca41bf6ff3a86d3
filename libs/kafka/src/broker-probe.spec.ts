import { Kafka } from 'kafkajs';
import { BrokerProbe } from './broker-probe';

/** A cluster the test switches on and off, and a clock it moves by hand. */
function fakeCluster() {
  const state = { up: true, hang: false, now: 0 };
  const admin = {
    connect: async () => {
      if (!state.up) throw new Error('Connection error: ECONNREFUSED');
    },
    describeCluster: () =>
      state.hang
        ? new Promise(() => undefined)
        : state.up
          ? Promise.resolve({ brokers: [] })
          : Promise.reject(new Error('Closed connection')),
    disconnect: async () => undefined,
  };
  const kafka = { admin: () => admin } as unknown as Kafka;
  return { kafka, state };
}

describe('BrokerProbe', () => {
  const options = { intervalMs: 60_000, staleAfterMs: 3_000 };
  // The probe's own timer is far off; each test probes by hand.

  it('is reachable after an answer, unreachable at the first failure, and reachable again at the next answer', async () => {
    const { kafka, state } = fakeCluster();
    const probe = new BrokerProbe(kafka, options, () => state.now);
    await probe.start();
    expect(probe.reachable).toBe(true);
    state.up = false;
    await probe.probe();
    expect(probe.reachable).toBe(false);
    state.up = true;
    await probe.probe();
    expect(probe.reachable).toBe(true);
    await probe.stop();
  });

  it('turns unreachable when no answer comes for staleAfterMs, even while a request hangs', async () => {
    const { kafka, state } = fakeCluster();
    const probe = new BrokerProbe(kafka, options, () => state.now);
    await probe.start();
    state.hang = true;
    void probe.probe();
    state.now = 2_999;
    expect(probe.reachable).toBe(true);
    state.now = 3_000;
    expect(probe.reachable).toBe(false);
    await probe.stop();
  });

  it('lets a probe under way finish before it disconnects, and asks nothing after it stopped', async () => {
    const { kafka, state } = fakeCluster();
    const probe = new BrokerProbe(kafka, options, () => state.now);
    await probe.start();
    const asked: string[] = [];
    const admin = kafka.admin();
    let answer: () => void = () => undefined;
    admin.describeCluster = () => {
      asked.push('describeCluster');
      return new Promise((resolve) => {
        answer = () => {
          asked.push('answered');
          resolve({ brokers: [], controller: null, clusterId: 'c' });
        };
      });
    };
    admin.disconnect = async () => void asked.push('disconnect');
    void probe.probe();
    const stopped = probe.stop();
    answer();
    await stopped;
    await probe.probe();
    expect(asked).toEqual(['describeCluster', 'answered', 'disconnect']);
  });

  describe('whileReachable', () => {
    /** Probes every 10 ms: the watch checks at that interval, on real timers. */
    const often = { intervalMs: 10, staleAfterMs: 3_000 };

    it('settles as the work does while the brokers answer', async () => {
      const { kafka, state } = fakeCluster();
      const probe = new BrokerProbe(kafka, often, () => state.now);
      await probe.start();
      await expect(probe.whileReachable(Promise.resolve('read'))).resolves.toBe('read');
      await expect(probe.whileReachable(Promise.reject(new Error('late')))).rejects.toThrow('late');
      await probe.stop();
    });

    it('rejects at once once a probe has found the brokers away', async () => {
      const { kafka, state } = fakeCluster();
      const probe = new BrokerProbe(kafka, options, () => state.now);
      await probe.start();
      state.up = false;
      await probe.probe();
      await expect(probe.whileReachable(new Promise(() => undefined))).rejects.toThrow(
        'no Kafka broker answers',
      );
      await probe.stop();
    });

    it('rejects work under way when a later probe finds the brokers away', async () => {
      const { kafka, state } = fakeCluster();
      const probe = new BrokerProbe(kafka, often, () => state.now);
      await probe.start();
      const waiting = probe.whileReachable(new Promise(() => undefined));
      state.up = false;
      await expect(waiting).rejects.toThrow('no Kafka broker answers');
      await probe.stop();
    });

    it('leaves work to itself before the first probe has finished', async () => {
      const { kafka, state } = fakeCluster();
      const probe = new BrokerProbe(kafka, options, () => state.now);
      expect(probe.reachable).toBe(false);
      await expect(probe.whileReachable(Promise.resolve('read'))).resolves.toBe('read');
    });
  });

  it('is unreachable before the first answer', async () => {
    const { kafka, state } = fakeCluster();
    state.up = false;
    const probe = new BrokerProbe(kafka, options, () => state.now);
    await probe.start();
    expect(probe.reachable).toBe(false);
    await probe.stop();
  });
});
