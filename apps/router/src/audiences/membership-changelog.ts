import { encodeMembershipChange, StateWrite } from '@switchyard/contracts';
import { OutputRecord } from '../pipeline/output-record';

/**
 * A changelog record (format: libs/contracts membership-changelog) on the partition of the
 * audiences-topic record it came from, so the instance that owns an audience's input partition
 * finds its whole state on the same changelog partition.
 */
export function changelogRecord(
  topic: string,
  partition: number,
  computationId: string,
  write: StateWrite,
): OutputRecord {
  return { topic, partition, ...encodeMembershipChange(computationId, write) };
}
