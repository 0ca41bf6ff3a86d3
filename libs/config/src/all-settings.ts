import { ADMIN_SETTINGS, COMMON_SERVICE_SETTINGS } from './common-settings';
import { KAFKA_CLIENT_SETTINGS } from './kafka-client-settings';
import { CONSOLE_SETTINGS } from './services/console-settings-table';
import { DELIVERY_SETTINGS } from './services/delivery-settings-table';
import { INGEST_SETTINGS } from './services/ingest-settings-table';
import { ROUTER_SETTINGS } from './services/router-settings-table';
import type { SettingsTable } from './settings-table';
import { TOPIC_SETTINGS } from './topic-settings';

const SHARED = [COMMON_SERVICE_SETTINGS, KAFKA_CLIENT_SETTINGS, TOPIC_SETTINGS] as const;

/** The tables each service reads at start-up, shared ones first: together they are all of its settings. */
export const SERVICE_SETTINGS_TABLES = {
  ingest: [...SHARED, ADMIN_SETTINGS, INGEST_SETTINGS],
  router: [...SHARED, ROUTER_SETTINGS],
  delivery: [...SHARED, ADMIN_SETTINGS, DELIVERY_SETTINGS],
  console: [...SHARED, ADMIN_SETTINGS, CONSOLE_SETTINGS],
} as const;

export type ServiceName = keyof typeof SERVICE_SETTINGS_TABLES;

export const SERVICE_NAMES = Object.keys(SERVICE_SETTINGS_TABLES) as ServiceName[];

/** Every table once, shared tables first, with the services that read it: what the reference and generated manifests walk. */
export function allSettingsTables(): Array<{ table: SettingsTable; services: ServiceName[] }> {
  const tablesOf = (service: ServiceName): readonly SettingsTable[] => SERVICE_SETTINGS_TABLES[service];
  const tables = [...new Set(SERVICE_NAMES.flatMap(tablesOf))];
  return tables.map((table) => ({
    table,
    services: SERVICE_NAMES.filter((service) => tablesOf(service).includes(table)),
  }));
}
