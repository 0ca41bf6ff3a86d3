import { encodeJson } from '@switchyard/kafka';
import { OutputRecord } from '../pipeline/output-record';
import { StateWrite } from './audience-membership';

/**
 * Records of the compacted membership changelog. Key `<computationId>:<userId>` holds a member,
 * key `<computationId>` (ids hold no colon) the progress of a snapshot; a null value deletes.
 * Each record goes to the partition of the audiences-topic record it came from, so the instance
 * that owns an audience's input partition finds its whole state on the same changelog partition.
 */
export function changelogRecord(topic: string, partition: number, computationId: string, write: StateWrite): OutputRecord {
  if (write.kind === 'progress') {
    return { topic, partition, key: computationId, value: write.progress ? encodeJson(write.progress) : null };
  }
  return { topic, partition, key: `${computationId}:${write.userId}`, value: write.record ? encodeJson(write.record) : null };
}

/** Reads a changelog record back; undefined when it is not one of ours. */
export function readChangelogRecord(key: string | null, value: Buffer | null): { computationId: string; write: StateWrite } | undefined {
  if (!key) return undefined;
  const parsed = value === null ? null : (JSON.parse(value.toString('utf8')) as never);
  const colon = key.indexOf(':');
  if (colon < 0) return { computationId: key, write: { kind: 'progress', progress: parsed } };
  return { computationId: key.slice(0, colon), write: { kind: 'member', userId: key.slice(colon + 1), record: parsed } };
}
