import { loadSettings, SERVICE_SETTINGS_TABLES, settingsClass } from '@switchyard/config';

/** The router's settings, read from the environment through its settings tables; validated at start-up. */
export class RouterSettings extends settingsClass(...SERVICE_SETTINGS_TABLES.router) {}

export function routerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RouterSettings {
  return loadSettings(RouterSettings, SERVICE_SETTINGS_TABLES.router, env, 'router settings');
}

/** Consumer group of one router pipeline; namespaced like the topics it reads. */
export function routerGroupId(settings: Pick<RouterSettings, 'topicNamespace'>, pipeline: string): string {
  return `${settings.topicNamespace}.router.${pipeline}`;
}
