/**
 * patches/kafkajs+2.2.4.patch, consumer side: kafkajs resolved a manual commit it did not make
 * when its run was not running, which it is not while it joins its group (after a crash, for as
 * long as the group has no coordinator). The committer then forgot positions the broker never
 * got, and the consumer read them again from the old commit. The patched runner refuses such a
 * commit. kafkajs's real Runner is driven here with a group that records the commits it is asked
 * for and fails them as told.
 */
import { silentKafkajsLogger } from '../../../test/support/silent-kafkajs-logger';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Runner = require('kafkajs/src/consumer/runner') as new (options: object) => {
  running: boolean;
  commitOffsets(offsets: object): Promise<void>;
};

const offsets = { topics: [{ topic: 'events', partitions: [{ partition: 0, offset: '42' }] }] };

function runnerWithGroup(commit: () => Promise<void>) {
  const asked: object[] = [];
  const consumerGroup = {
    groupId: 'group',
    memberId: 'member-1',
    commitOffsets: (o: object) => {
      asked.push(o);
      return commit();
    },
  };
  const runner = new Runner({
    logger: silentKafkajsLogger,
    consumerGroup,
    instrumentationEmitter: { emit: () => undefined },
    retry: { retries: 0 },
    onCrash: () => undefined,
  });
  return { runner, asked };
}

describe('the patched kafkajs runner, asked to commit', () => {
  it('refuses while its run is not running (joining its group), and sends nothing', async () => {
    const { runner, asked } = runnerWithGroup(async () => undefined);
    await expect(runner.commitOffsets(offsets)).rejects.toThrow(
      'The consumer is not running: offsets not committed',
    );
    expect(asked).toEqual([]);
  });

  it('refuses a commit that failed while its run stopped', async () => {
    const { runner, asked } = runnerWithGroup(async () => {
      runner.running = false;
      throw new Error('Connection error: connect ECONNREFUSED');
    });
    runner.running = true;
    await expect(runner.commitOffsets(offsets)).rejects.toThrow('offsets not committed');
    expect(asked).toEqual([offsets]);
  });

  it('commits while running', async () => {
    const { runner, asked } = runnerWithGroup(async () => undefined);
    runner.running = true;
    await expect(runner.commitOffsets(offsets)).resolves.toBeUndefined();
    expect(asked).toEqual([offsets]);
  });
});
