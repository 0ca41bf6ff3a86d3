import { KAFKA_COMPRESSIONS } from '@switchyard/kafka';
import { integer, oneOf, text } from './setting-kinds';
import { settingsTable } from './settings-table';

/** What every service reads besides Kafka and topics: where it listens, how it logs, its workspace, how its Kafka clients behave. */
export const COMMON_SERVICE_SETTINGS = settingsTable({
  title: 'Every service',
  summary: 'Listener, logging, workspace file and Kafka client behaviour shared by all services.',
  rows: {
    host: oneOf({
      env: 'HOST',
      values: ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'],
      default: '0.0.0.0',
      description: 'Address the HTTP listener binds.',
    }),
    logLevel: oneOf({
      env: 'LOG_LEVEL',
      values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'pino log level.',
    }),
    workspaceConfigPath: text({
      env: 'WORKSPACE_CONFIG',
      default: undefined,
      description:
        'A mounted workspace file to route by instead of the workspace topic (edits apply live; the management API then refuses changes). Unset: the workspace topic, set up through the management API.',
    }),
    workspaceEncryptionKeys: text({
      env: 'WORKSPACE_ENCRYPTION_KEYS',
      default: undefined,
      accepts:
        /^\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=\s*(,\s*[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=\s*)*$/,
      rule: 'must be id:key[,id:key…], each key 32 random bytes in base64 (openssl rand -base64 32)',
      secret: true,
      description:
        "Keys of the workspace topic's secrets (AES-256-GCM): the first seals, every one opens, so a key is rotated by putting a new one first. Every service needs them. Never logged.",
    }),
    buildCommit: text({
      env: 'SWITCHYARD_COMMIT',
      default: 'unknown',
      accepts: /^([0-9a-f]{7,40}|unknown)$/,
      rule: 'must be a git commit id (7 to 40 lowercase hex digits) or "unknown"',
      description:
        'The commit this build came from, shown as `switchyard_build_info{commit}`; the image sets it at build time, `npm start` from the checkout.',
    }),
    /*
     * 10 s, not kafkajs's 30: kafkajs has no static membership (group.instance.id), so a restarted
     * pod joins as a new member and waits out the dead one's session. Heartbeats go every tenth of it.
     */
    kafkaSessionTimeoutMs: integer({
      env: 'KAFKA_SESSION_TIMEOUT_MS',
      default: 10_000,
      min: 6000,
      max: 300_000,
      description:
        "How long a consumer group waits for a silent member before giving its partitions to another: after a crash, that member's partitions wait this long.",
    }),
    /*
     * zstd by default for its lower CPU per event (bench/README.md). Consumers of Switchyard's
     * topics outside it must read zstd (Kafka's own clients do; kafkajs needs a codec).
     */
    kafkaCompression: oneOf({
      env: 'KAFKA_COMPRESSION',
      values: KAFKA_COMPRESSIONS,
      default: 'zstd',
      description:
        "Compression of the record batches a service writes; your own consumers of Switchyard's topics must read it.",
    }),
  },
});

/** The admin token of the services that have admin endpoints (ingest, delivery, console). */
export const ADMIN_SETTINGS = settingsTable({
  title: 'Admin token',
  summary: 'The bearer token of the admin endpoints (ingest, delivery) and the console login.',
  rows: {
    adminToken: text({
      env: 'ADMIN_TOKEN',
      default: undefined,
      accepts: /^.{16,}$/s,
      rule: 'must be at least 16 characters',
      secret: true,
      description:
        "Bearer token of the admin endpoints and the console's login password; unset: those endpoints answer 503. Never logged.",
    }),
  },
});
