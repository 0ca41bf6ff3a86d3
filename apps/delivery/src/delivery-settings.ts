import { loadSettings, SERVICE_SETTINGS_TABLES, settingsClass } from '@switchyard/config';

/** Delivery's settings, read from the environment through its settings tables; validated at start-up. */
export class DeliverySettings extends settingsClass(...SERVICE_SETTINGS_TABLES.delivery) {}

export function deliverySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): DeliverySettings {
  return loadSettings(DeliverySettings, SERVICE_SETTINGS_TABLES.delivery, env, 'delivery settings');
}

/** Delivery's consumer group; namespaced like the topics it reads. */
export function deliveryGroupId(settings: Pick<DeliverySettings, 'topicNamespace'>): string {
  return `${settings.topicNamespace}.delivery`;
}
