import {
  ALL_IN_ONE_SETTINGS,
  ConfigError,
  loadSettings,
  ServiceName,
  settingsClass,
} from '@switchyard/config';

/** Which services the process runs, and each one's port. */
export class AllInOneSettings extends settingsClass(ALL_IN_ONE_SETTINGS) {}

/**
 * Reads SWITCHYARD_SERVICES and the services' ports; throws a ConfigError naming each bad
 * variable. PORT is refused: it is one service's port, and the process has one per service.
 */
export function allInOneSettingsFromEnv(env: NodeJS.ProcessEnv): AllInOneSettings {
  if (env.PORT)
    throw new ConfigError(
      'invalid all-in-one settings:\n  - PORT is the port of a service run on its own; in one process each service has its own: set INGEST_PORT, ROUTER_PORT, DELIVERY_PORT or CONSOLE_PORT instead',
    );
  return loadSettings(AllInOneSettings, [ALL_IN_ONE_SETTINGS], env, 'all-in-one settings');
}

export function portOf(settings: AllInOneSettings, service: ServiceName): number {
  return settings[`${service}Port`];
}
