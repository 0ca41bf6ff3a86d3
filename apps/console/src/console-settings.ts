import { loadSettings, SERVICE_SETTINGS_TABLES, settingsClass } from '@switchyard/config';

/** The console's settings, read from the environment through its settings tables; validated at start-up. */
export class ConsoleSettings extends settingsClass(...SERVICE_SETTINGS_TABLES.console) {}

export function consoleSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ConsoleSettings {
  return loadSettings(ConsoleSettings, SERVICE_SETTINGS_TABLES.console, env, 'console settings');
}
