import { DeletionRequested } from '@switchyard/contracts';
import { RouterHarness, source, webhooks } from '../../test-support/router-harness';

jest.setTimeout(90_000);

describe('router: deletion requests → delete notifications (real Kafka)', () => {
  let harness: RouterHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function requestDeletion(request: DeletionRequested): Promise<void> {
    await harness!.producer.send({
      topic: harness!.topics.deletions,
      acks: -1,
      messages: [{ key: request.requestId, value: JSON.stringify(request) }],
    });
  }

  it('emits one delete per affected source with an enabled Webhooks destination, to each of its destinations', async () => {
    harness = await RouterHarness.start({
      sources: [source('web'), source('ios'), source('backend'), source('lonely')],
      destinations: [
        webhooks('hooks', ['web', 'ios']),
        webhooks('audit', ['ios']),
        webhooks('off', ['backend'], false),
      ],
    });
    await requestDeletion({ requestId: 'r-1', userIds: ['u-9'], requestedAt: '2024-03-01T12:00:00Z' });

    const jobs = await harness.outputs.waitFor(3, (r) => r.value.body?.type === 'delete');
    expect(jobs.map((r) => `${r.value.sourceId}→${r.value.destinationId}`).sort()).toEqual([
      'ios→audit',
      'ios→hooks',
      'web→hooks',
    ]);
    for (const { key, value } of jobs) {
      expect(value.body).toEqual({
        type: 'delete',
        userId: 'u-9',
        timestamp: '2024-03-01T12:00:00.000Z',
        messageId: value.messageId,
      });
      expect(key).toBe(`${value.destinationId}:${value.sourceId}:u-9`);
    }
    // One notification per source: both destinations of ios carry the same message.
    const ios = jobs.filter((r) => r.value.sourceId === 'ios').map((r) => r.value.messageId);
    expect(new Set(ios).size).toBe(1);

    // A request limited to one source reaches only that source; it comes after the first on the
    // single deletions partition, so once it is out nothing more of the first can follow.
    await requestDeletion({
      requestId: 'r-2',
      userIds: ['u-9'],
      sourceIds: ['web'],
      requestedAt: '2024-03-01T13:00:00Z',
    });
    const limited = await harness.outputs.waitFor(
      1,
      (r) => r.value.body?.timestamp === '2024-03-01T13:00:00.000Z',
    );
    expect(limited.map((r) => r.value.sourceId)).toEqual(['web']);
    expect(harness.outputs.records.filter((r) => r.value.body?.type === 'delete')).toHaveLength(4);
  });
});
