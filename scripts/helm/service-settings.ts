/**
 * Every environment variable the services read, with its default: the one list the Helm chart's
 * values (`env:` in deploy/helm/switchyard/values.yaml) and their documentation are generated from.
 * `service` is the service that reads it, or `all` for those every service reads.
 *
 * This is the single place to point at the services' declarative settings tables once they exist:
 * whatever produces the list, the generator and its test stay as they are.
 */
export type ChartService = 'all' | 'ingest' | 'router' | 'delivery' | 'console';

export interface ServiceSetting {
  service: ChartService;
  env: string;
  /** The value the service uses when the variable is unset; '' = unset (the service's own fallback applies). */
  default: string;
  description: string;
}

const DAY_MS = String(24 * 60 * 60 * 1000);

export function serviceSettings(): ServiceSetting[] {
  return [
    // Shared by every service.
    {
      service: 'all',
      env: 'KAFKA_SSL_REJECT_UNAUTHORIZED',
      default: 'true',
      description: '`false` accepts any broker certificate: for diagnosis only',
    },
    {
      service: 'all',
      env: 'KAFKA_CREATE_TOPICS',
      default: 'true',
      description:
        '`false`: create no topic (no create ACL); start-up checks every topic exists with enough partitions',
    },
    {
      service: 'all',
      env: 'KAFKA_COMPRESSION',
      default: 'zstd',
      description: '`zstd`, `gzip` or `none`: compression of the record batches a service writes',
    },
    {
      service: 'all',
      env: 'KAFKA_SESSION_TIMEOUT_MS',
      default: '10000',
      description: 'how long the group waits for a silent consumer (6000 at least)',
    },
    {
      service: 'all',
      env: 'KAFKA_RETENTION_MS',
      default: String(7 * Number(DAY_MS)),
      description: '`retention.ms` of the events, audiences, deletions and deliveries topics',
    },
    {
      service: 'all',
      env: 'KAFKA_DEAD_LETTER_RETENTION_MS',
      default: String(30 * Number(DAY_MS)),
      description: '`retention.ms` of the dead-letter topics (how far back dead letters can be replayed)',
    },
    {
      service: 'all',
      env: 'KAFKA_ATTEMPTS_RETENTION_MS',
      default: String(7 * Number(DAY_MS)),
      description: '`retention.ms` of the delivery-attempts topic (the console history)',
    },
    {
      service: 'all',
      env: 'TOPIC_NAMESPACE',
      default: 'switchyard',
      description: 'prefix of every topic name',
    },
    {
      service: 'all',
      env: 'TOPIC_PARTITIONS',
      default: '6',
      description:
        'partitions of the topics a service creates: the most useful replicas of router and delivery',
    },
    { service: 'all', env: 'HOST', default: '0.0.0.0', description: 'address the HTTP listener binds' },
    {
      service: 'all',
      env: 'LOG_LEVEL',
      default: 'info',
      description: 'pino level: fatal, error, warn, info, debug, trace or silent',
    },
    {
      service: 'all',
      env: 'SWITCHYARD_COMMIT',
      default: '',
      description: 'the build commit shown as `switchyard_build_info{commit}`; unset: the image sets it',
    },
    {
      service: 'all',
      env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
      default: '',
      description: 'OTLP/HTTP trace export to a collector (`http://collector:4318`); unset: tracing off',
    },
    {
      service: 'all',
      env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
      default: 'http/protobuf',
      description: '`http/protobuf` or `http/json`',
    },
    {
      service: 'all',
      env: 'OTEL_TRACES_SAMPLER',
      default: 'parentbased_always_on',
      description: 'one of the SDK samplers',
    },
    {
      service: 'all',
      env: 'OTEL_TRACES_SAMPLER_ARG',
      default: '',
      description: 'the sampler ratio (0-1) for the ratio samplers',
    },
    {
      service: 'all',
      env: 'OTEL_RESOURCE_ATTRIBUTES',
      default: '',
      description: 'extra trace resource attributes (`key=value,...`)',
    },
    {
      service: 'all',
      env: 'NODE_OPTIONS',
      default: '--disable-warning=TimeoutNegativeWarning',
      description: 'Node.js options; the heap flags are on each container command line instead',
    },
    {
      service: 'all',
      env: 'MALLOC_ARENA_MAX',
      default: '2',
      description: 'glibc malloc arenas (fewer arenas, less resident memory)',
    },
    {
      service: 'all',
      env: 'MALLOC_MMAP_THRESHOLD_',
      default: '131072',
      description: 'glibc: buffers this large or larger are mapped on their own and returned when freed',
    },
    // ingest
    {
      service: 'ingest',
      env: 'INGEST_MAX_MESSAGE_BYTES',
      default: '32768',
      description: 'largest message (JSON bytes)',
    },
    {
      service: 'ingest',
      env: 'INGEST_MAX_REQUEST_BYTES',
      default: '512000',
      description: 'largest request, counted after decompression',
    },
    {
      service: 'ingest',
      env: 'INGEST_MAX_BATCH_MESSAGES',
      default: '2500',
      description: 'messages per batch',
    },
    {
      service: 'ingest',
      env: 'INGEST_PRODUCE_LINGER_MS',
      default: '2',
      description: 'how long a record waits to share a Kafka batch',
    },
    {
      service: 'ingest',
      env: 'INGEST_PRODUCE_TIMEOUT_MS',
      default: '5000',
      description: 'a call Kafka has not acknowledged by then gets 503 (100 ms - 60 s)',
    },
    {
      service: 'ingest',
      env: 'INGEST_MAX_JSON_DEPTH',
      default: '64',
      description: 'nesting of objects and arrays in a body (8-512)',
    },
    {
      service: 'ingest',
      env: 'INGEST_HEADERS_TIMEOUT_MS',
      default: '10000',
      description: 'time a client has to send its request headers (1 s - 5 min)',
    },
    {
      service: 'ingest',
      env: 'INGEST_REQUEST_TIMEOUT_MS',
      default: '30000',
      description: 'time for the whole request, body included (1 s - 10 min)',
    },
    {
      service: 'ingest',
      env: 'INGEST_KEEP_ALIVE_TIMEOUT_MS',
      default: '72000',
      description:
        'idle keep-alive connections close after this; keep it above the load balancer idle timeout',
    },
    {
      service: 'ingest',
      env: 'INGEST_PUBLIC_URL',
      default: '',
      description:
        'how browsers and apps reach ingest (`https://events.example.com`); unset: the request scheme and Host',
    },
    {
      service: 'ingest',
      env: 'INGEST_TRUST_PROXY',
      default: 'false',
      description: 'whose X-Forwarded-* headers to believe: `true`, a hop count (1-10), or addresses/CIDRs',
    },
    // router
    {
      service: 'router',
      env: 'ROUTER_TRANSACTIONAL',
      default: 'false',
      description: 'Kafka transactions: routing exactly-once into the deliveries topic, at a latency cost',
    },
    {
      service: 'router',
      env: 'ROUTER_COMMIT_INTERVAL_MS',
      default: '200',
      description: 'without transactions: how often the input offsets of routed batches are committed',
    },
    // delivery
    {
      service: 'delivery',
      env: 'DELIVERY_USER_AGENT',
      default: 'Switchyard',
      description: 'product token of `User-Agent: <token>/1.0`',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_REQUEST_TIMEOUT_MS',
      default: '5000',
      description: 'whole-response timeout of a webhook request (50 ms - 60 s)',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_RETRY_SCHEDULE_MS',
      default: '10000,60000,300000,1800000,3600000',
      description: 'one retry topic per entry; the last repeats; must not decrease',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_RETRY_JITTER',
      default: '0.2',
      description: 'each delay is stretched by up to this fraction at random',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_RETRY_WINDOW_MS',
      default: '14400000',
      description: 'no retry starts later than this after the first attempt',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_RETRY_AFTER_MAX_MS',
      default: '3600000',
      description: 'the longest `Retry-After` honoured',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_MAX_IN_FLIGHT_PER_PARTITION',
      default: '1000',
      description: 'unfinished jobs per partition before it pauses',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_MAX_IN_FLIGHT_BYTES_PER_PARTITION',
      default: '1048576',
      description: 'record bytes of those jobs before it pauses',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_MAX_IN_FLIGHT_PER_DESTINATION',
      default: '64',
      description: 'concurrent requests per destination (also the keep-alive pool size)',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_BREAKER_FAILURE_THRESHOLD',
      default: '5',
      description: 'retryable failures in a row that open a URL circuit',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_BREAKER_OPEN_MS',
      default: '30000',
      description: 'how long an open circuit fails fast',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_BLOCK_PRIVATE_ADDRESSES',
      default: 'false',
      description: 'SSRF guard: refuse loopback, private and link-local peers',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_SHUTDOWN_GRACE_MS',
      default: '10000',
      description:
        'how long SIGTERM waits for in-flight requests (keep `delivery.terminationGracePeriodSeconds` above it)',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_COMMIT_INTERVAL_MS',
      default: '200',
      description: 'how often finished offsets are committed',
    },
    {
      service: 'delivery',
      env: 'DELIVERY_ATTEMPTS_TOPIC',
      default: 'true',
      description: 'write one record per webhook request to the attempts topic (the console history)',
    },
    // console
    {
      service: 'console',
      env: 'CONSOLE_MAX_ATTEMPTS',
      default: '100000',
      description: 'attempt records held in memory; the oldest are evicted past it',
    },
    {
      service: 'console',
      env: 'CONSOLE_MAX_DEAD_LETTERS',
      default: '10000',
      description: 'dead-letter records held in memory',
    },
    {
      service: 'console',
      env: 'CONSOLE_CALLS_PER_SOURCE',
      default: '100',
      description: 'calls kept per source for the live debugger',
    },
    {
      service: 'console',
      env: 'CONSOLE_SESSION_TTL_MS',
      default: '43200000',
      description: 'how long a console login lasts',
    },
    {
      service: 'console',
      env: 'CONSOLE_SECURE_COOKIE',
      default: 'false',
      description: 'mark the session cookie Secure; set it when the console is served over HTTPS',
    },
  ];
}
