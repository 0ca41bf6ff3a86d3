import { loadSettings, SERVICE_SETTINGS_TABLES, settingsClass } from '@switchyard/config';

/** Ingest's settings, read from the environment through its settings tables; validated at start-up. */
export class IngestSettings extends settingsClass(...SERVICE_SETTINGS_TABLES.ingest) {}

export function ingestSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): IngestSettings {
  return loadSettings(IngestSettings, SERVICE_SETTINGS_TABLES.ingest, env, 'ingest settings');
}
