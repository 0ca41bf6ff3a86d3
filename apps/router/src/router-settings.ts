import { IsBoolean } from 'class-validator';
import { CommonSettings, commonSettingsFromEnv, envBoolean, validateSettings } from '@switchyard/config';

/** The router's settings: defaults, then the environment; validated at start-up. */
export class RouterSettings extends CommonSettings {
  /**
   * Route with Kafka transactions (outputs and input offsets commit atomically: exactly-once
   * into the deliveries topic). Off: at-least-once, outputs acknowledged before offsets commit.
   */
  @IsBoolean({ message: 'transactional (ROUTER_TRANSACTIONAL) must be true or false' })
  transactional!: boolean;
}

export function routerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RouterSettings {
  return validateSettings(
    RouterSettings,
    { ...commonSettingsFromEnv(env, 8081), transactional: envBoolean(env, 'ROUTER_TRANSACTIONAL', false) },
    'router settings',
  );
}

/** Consumer group of one router pipeline; namespaced like the topics it reads. */
export function routerGroupId(settings: Pick<RouterSettings, 'topicNamespace'>, pipeline: string): string {
  return `${settings.topicNamespace}.router.${pipeline}`;
}
