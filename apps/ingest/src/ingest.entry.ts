import type { ServiceEntry } from '@switchyard/service';
import { IngestSettings, ingestSettingsFromEnv } from './ingest-settings';
import { startIngest } from './ingest.app';

/** How ingest starts: run by its own main.ts, or beside other services in one process (apps/switchyard). */
export const ingestEntry: ServiceEntry<IngestSettings> = {
  name: 'ingest',
  settingsFromEnv: ingestSettingsFromEnv,
  start: startIngest,
  heapGrowth: { restingPercent: 30, underLoadPercent: 200 },
};
