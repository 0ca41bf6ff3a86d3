import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { consoleSettingsFromEnv } from './console-settings';
import { startConsole } from './console.app';

runService('console', consoleSettingsFromEnv, startConsole);
