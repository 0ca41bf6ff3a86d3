import { Type } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import {
  assertKafkaSettings,
  CommonSettings,
  commonSettingsFromEnv,
  envBoolean,
  envNumber,
  validateSettings,
} from '@switchyard/config';

/** The router's settings: defaults, then the environment; validated at start-up. */
export class RouterSettings extends CommonSettings {
  /**
   * Route with Kafka transactions (outputs and input offsets commit atomically: exactly-once
   * into the deliveries topic). Off: at-least-once, outputs acknowledged before offsets commit.
   */
  @IsBoolean({ message: 'transactional (ROUTER_TRANSACTIONAL) must be true or false' })
  transactional!: boolean;

  /** At-least-once mode: how often input offsets of acknowledged batches are committed (a crash replays at most this much). */
  @Type(() => Number)
  @IsInt({ message: 'commitIntervalMs (ROUTER_COMMIT_INTERVAL_MS) must be a whole number of milliseconds' })
  @Min(10, { message: 'commitIntervalMs (ROUTER_COMMIT_INTERVAL_MS) must be at least 10' })
  @Max(60_000, { message: 'commitIntervalMs (ROUTER_COMMIT_INTERVAL_MS) must be at most 60000' })
  commitIntervalMs!: number;
}

export function routerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RouterSettings {
  const settings = validateSettings(
    RouterSettings,
    {
      ...commonSettingsFromEnv(env, 8081),
      transactional: envBoolean(env, 'ROUTER_TRANSACTIONAL', false),
      commitIntervalMs: envNumber(env, 'ROUTER_COMMIT_INTERVAL_MS', 200),
    },
    'router settings',
  );
  assertKafkaSettings(settings, 'router settings');
  return settings;
}

/** Consumer group of one router pipeline; namespaced like the topics it reads. */
export function routerGroupId(settings: Pick<RouterSettings, 'topicNamespace'>, pipeline: string): string {
  return `${settings.topicNamespace}.router.${pipeline}`;
}
