import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { deliverySettingsFromEnv } from './delivery-settings';
import { startDelivery } from './delivery.app';

runService('delivery', deliverySettingsFromEnv, startDelivery);
