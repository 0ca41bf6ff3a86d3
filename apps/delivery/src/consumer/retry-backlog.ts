import type { PartitionLag } from '@switchyard/kafka';

/**
 * How many jobs wait in each retry tier: the delivery group's lag on the tier's topic, summed
 * over its partitions. Tier 1 is `tierTopics[0]`.
 */
export function retryBacklog(
  lag: readonly PartitionLag[],
  tierTopics: readonly string[],
): Array<{ tier: number; jobs: number }> {
  return tierTopics.map((topic, i) => ({
    tier: i + 1,
    jobs: lag.reduce((sum, p) => (p.topic === topic ? sum + p.lag : sum), 0),
  }));
}
