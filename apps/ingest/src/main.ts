import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { ingestSettingsFromEnv } from './ingest-settings';
import { startIngest } from './ingest.app';

runService('ingest', ingestSettingsFromEnv, startIngest);
