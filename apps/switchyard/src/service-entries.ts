import type { ServiceName } from '@switchyard/config';
import type { ServiceEntry } from '@switchyard/service';

/** Loads a service's entry module. */
export type EntryLoader = (name: ServiceName) => Promise<ServiceEntry<unknown>>;

/**
 * Each service's entry module, the one module of another app this composition root may import.
 * Loaded only when the process runs that service, so a service left out costs no memory.
 */
const ENTRIES: Record<ServiceName, () => Promise<ServiceEntry<unknown>>> = {
  ingest: async () => (await import('../../ingest/src/ingest.entry')).ingestEntry,
  router: async () => (await import('../../router/src/router.entry')).routerEntry,
  delivery: async () => (await import('../../delivery/src/delivery.entry')).deliveryEntry,
  console: async () => (await import('../../console/src/console.entry')).consoleEntry,
};

export const loadEntry: EntryLoader = (name) => ENTRIES[name]();
