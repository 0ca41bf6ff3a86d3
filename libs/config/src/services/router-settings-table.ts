import { flag, integer, port } from '../setting-kinds';
import { settingsTable } from '../settings-table';

/** The router's own settings: delivery guarantee and commit pace. */
export const ROUTER_SETTINGS = settingsTable({
  title: 'Router',
  summary: 'How the router commits what it routed.',
  rows: {
    port: port(8081),
    transactional: flag({
      env: 'ROUTER_TRANSACTIONAL',
      default: false,
      description:
        'Route with Kafka transactions: outputs and input offsets commit atomically (exactly-once into the deliveries topic), at a latency cost. Off: at-least-once.',
    }),
    commitIntervalMs: integer({
      env: 'ROUTER_COMMIT_INTERVAL_MS',
      default: 200,
      min: 10,
      max: 60_000,
      description:
        'Without transactions: how long the input offsets of acknowledged batches wait before they are committed; a crash replays at most this much.',
    }),
  },
});
