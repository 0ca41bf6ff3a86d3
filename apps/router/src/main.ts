import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { routerSettingsFromEnv } from './router-settings';
import { startRouter } from './router.app';

runService('router', routerSettingsFromEnv, startRouter);
