/**
 * Every Kafka topic Switchyard uses, in one place. Names are versioned so a contract change
 * ships as a new topic rather than a silent reinterpretation of old records.
 *
 * The namespace prefix lets several deployments (or every integration test) share a broker
 * without seeing each other's records.
 */
export interface TopicNames {
  /** Validated calls from ingest. Key `<sourceId>:<userId or anonymousId>`. */
  readonly events: string;
  /** Event records the router could not read or validate, with the reason. */
  readonly eventsDead: string;
  /** Audience and computed-trait syncs from the personalization product. Key: audience id. */
  readonly audiences: string;
  /** Compacted changelog of audience membership, owned by the router. Key `<audienceId>:<userId>`. */
  readonly audienceMembership: string;
  /** Deletion requests from the admin API. */
  readonly deletions: string;
  /** One job per (call, destination), produced by the router. */
  readonly deliveries: string;
  /** Jobs that failed permanently or ran out of their retry window. */
  readonly deliveriesDead: string;
  /** One record per webhook request delivery made (successes included), for the console. Key: the job id. */
  readonly deliveryAttempts: string;
  /** Retry tier `tier` (1-based) of the delivery schedule. */
  retry(tier: number): string;
}

export const DEFAULT_TOPIC_NAMESPACE = 'switchyard';

export function topicNames(namespace: string = DEFAULT_TOPIC_NAMESPACE): TopicNames {
  const ns = namespace;
  return {
    events: `${ns}.events.ingested.v1`,
    eventsDead: `${ns}.events.dead.v1`,
    audiences: `${ns}.audiences.synced.v1`,
    audienceMembership: `${ns}.audiences.membership.v1`,
    deletions: `${ns}.deletions.requested.v1`,
    deliveries: `${ns}.deliveries.v1`,
    deliveriesDead: `${ns}.deliveries.dead.v1`,
    deliveryAttempts: `${ns}.deliveries.attempts.v1`,
    retry: (tier: number) => `${ns}.deliveries.retry.${tier}.v1`,
  };
}
