/**
 * patches/kafkajs+2.2.4.patch, consumer side: kafkajs restarts a consumer that spent its retries
 * (the brokers away) as a new group member. A coordinator back from the outage still holds the
 * old member, and let the new one in only once the old one's session expired. The patched
 * consumer joins again with the member id its crashed run held when leaving the group failed, and
 * as a new member when it left. The real consumer is driven with its runner replaced: a run's
 * start notes the member id it was given, and its stop leaves the group or fails to, as told.
 */
import { silentKafkajsLogger } from '../../../test/support/silent-kafkajs-logger';
const mockStarts: (string | null)[] = [];
const mockLeaving = { succeeds: false };
const mockRestarted = { notify: (): void => undefined };

interface FakeGroup {
  memberId: string | null;
}

jest.mock('kafkajs/src/consumer/runner', () => {
  return class FakeRunner {
    private readonly group: FakeGroup;
    private readonly onCrash: (error: Error) => void;

    constructor({ consumerGroup, onCrash }: { consumerGroup: FakeGroup; onCrash: (error: Error) => void }) {
      this.group = consumerGroup;
      this.onCrash = onCrash;
    }

    async start(): Promise<void> {
      mockStarts.push(this.group.memberId);
      if (mockStarts.length > 1) return mockRestarted.notify();
      // The join's answer names the member; then the brokers go away until the retries are spent.
      this.group.memberId = 'member-1';
      const spent = Object.assign(new Error('Connection error: connect ECONNREFUSED'), {
        name: 'KafkaJSNumberOfRetriesExceeded',
        retryTime: 1,
      });
      setImmediate(() => this.onCrash(spent));
    }

    async stop(): Promise<void> {
      if (mockLeaving.succeeds) this.group.memberId = null;
    }
  };
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const createConsumer = require('kafkajs/src/consumer') as (options: object) => {
  run(config: object): Promise<void>;
  disconnect(): Promise<void>;
};

const cluster = { connect: async () => undefined, disconnect: async () => undefined };

async function restartedOnce(): Promise<(string | null)[]> {
  const consumer = createConsumer({
    cluster,
    groupId: 'group',
    logger: silentKafkajsLogger,
    retry: { retries: 0 },
  });
  const restarted = new Promise<void>((resolve) => (mockRestarted.notify = resolve));
  await consumer.run({ eachBatch: async () => undefined });
  await restarted;
  await consumer.disconnect();
  return [...mockStarts];
}

describe('kafkajs consumer restarted after a crash', () => {
  beforeEach(() => (mockStarts.length = 0));

  it('joins again as the member it was when leaving its group failed', async () => {
    mockLeaving.succeeds = false;
    expect(await restartedOnce()).toEqual([null, 'member-1']);
  });

  it('joins as a new member when it left its group', async () => {
    mockLeaving.succeeds = true;
    expect(await restartedOnce()).toEqual([null, null]);
  });
});
