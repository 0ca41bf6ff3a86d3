import type { ServiceEntry } from '@switchyard/service';
import { ConsoleSettings, consoleSettingsFromEnv } from './console-settings';
import { startConsole } from './console.app';

/** How console starts: run by its own main.ts, or beside other services in one process (apps/switchyard). */
export const consoleEntry: ServiceEntry<ConsoleSettings> = {
  name: 'console',
  settingsFromEnv: consoleSettingsFromEnv,
  start: startConsole,
};
