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
  /** Deletion requests from the management API. */
  readonly deletions: string;
  /** One job per (call, destination), produced by the router. */
  readonly deliveries: string;
  /** Jobs that failed permanently or ran out of their retry window. */
  readonly deliveriesDead: string;
  /** One record per webhook request delivery made (successes included), and per call a destination's filters kept from it, for the console. */
  readonly deliveryAttempts: string;
  /** Compacted: every source and destination, one record each. Key `<kind>:<id>`; a tombstone deletes. */
  readonly workspace: string;
  /** Every change to the workspace: who, when, before and after (secrets masked). Key `<kind>:<id>`. */
  readonly workspaceAudit: string;
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
    workspace: `${ns}.workspace.v1`,
    workspaceAudit: `${ns}.workspace.audit.v1`,
    retry: (tier: number) => `${ns}.deliveries.retry.${tier}.v1`,
  };
}

/** A service of Switchyard, as the topic table names them. */
export type Service = 'ingest' | 'router' | 'delivery' | 'console';

/** Which retention a topic keeps; the durations are settings (libs/config, topicConfigs). */
export type RetentionFamily = 'stream' | 'deadLetter' | 'retryTier' | 'changelog' | 'attempts' | 'audit';

/**
 * How many partitions a topic has: `configured` is TOPIC_PARTITIONS (the ceiling on consumer
 * replicas); `single` keeps a low-volume admin stream in one order; `audiences` copies the
 * audiences topic, so changelog partition p holds the state of audiences partition p.
 */
export type PartitionRule = 'configured' | 'single' | 'audiences';

export interface TopicRow {
  name: string;
  partitions: PartitionRule;
  retention: RetentionFamily;
  /** The service that writes it and defines it. */
  owner: Service;
  /** Services that read it; they create it too when they start first, from this same row. */
  readers: readonly Service[];
  /** Services other than the owner that write to it (and create it likewise). */
  otherWriters: readonly Service[];
}

/** Every topic, once: its partition rule, retention family, owner and readers. */
export function topicTable(names: TopicNames, retryTiers: number): TopicRow[] {
  const row = (
    name: string,
    partitions: PartitionRule,
    retention: RetentionFamily,
    owner: Service,
    readers: Service[] = [],
    otherWriters: Service[] = [],
  ): TopicRow => ({ name, partitions, retention, owner, readers, otherWriters });
  return [
    row(names.events, 'configured', 'stream', 'ingest', ['router', 'console']),
    // The management API (console) takes syncs and deletions; ingest's older admin paths too.
    row(names.audiences, 'configured', 'stream', 'ingest', ['router'], ['console']),
    row(names.deletions, 'single', 'stream', 'ingest', ['router'], ['console']),
    row(names.eventsDead, 'single', 'deadLetter', 'router'),
    row(names.audienceMembership, 'audiences', 'changelog', 'router'),
    row(names.deliveries, 'configured', 'stream', 'router', ['delivery']),
    ...Array.from({ length: retryTiers }, (_, i) =>
      row(names.retry(i + 1), 'configured', 'retryTier', 'delivery'),
    ),
    row(names.deliveriesDead, 'configured', 'deadLetter', 'delivery', ['console']),
    // The router records there the calls a destination's filters kept from it.
    row(names.deliveryAttempts, 'configured', 'attempts', 'delivery', ['console'], ['router']),
    row(names.workspace, 'single', 'changelog', 'console', ['ingest', 'router', 'delivery']),
    row(names.workspaceAudit, 'single', 'audit', 'console'),
  ];
}

/** The topics a service writes or reads: the ones it makes sure of at start-up. */
export function topicsOf(service: Service, names: TopicNames, retryTiers = 0): TopicRow[] {
  return topicTable(names, retryTiers).filter(
    (t) => t.owner === service || t.readers.includes(service) || t.otherWriters.includes(service),
  );
}
