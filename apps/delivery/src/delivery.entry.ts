import type { ServiceEntry } from '@switchyard/service';
import { DeliverySettings, deliverySettingsFromEnv } from './delivery-settings';
import { startDelivery } from './delivery.app';

/** How delivery starts: run by its own main.ts, or beside other services in one process (apps/switchyard). */
export const deliveryEntry: ServiceEntry<DeliverySettings> = {
  name: 'delivery',
  settingsFromEnv: deliverySettingsFromEnv,
  start: startDelivery,
  heapGrowth: { restingPercent: 30, underLoadPercent: 60 },
};
