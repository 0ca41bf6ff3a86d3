import type { ServiceEntry } from '@switchyard/service';
import { RouterSettings, routerSettingsFromEnv } from './router-settings';
import { startRouter } from './router.app';

/** How router starts: run by its own main.ts, or beside other services in one process (apps/switchyard). */
export const routerEntry: ServiceEntry<RouterSettings> = {
  name: 'router',
  settingsFromEnv: routerSettingsFromEnv,
  start: startRouter,
  heapGrowth: { restingPercent: 30, underLoadPercent: 100 },
};
