import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { deliveryEntry } from './delivery.entry';

runService(deliveryEntry);
