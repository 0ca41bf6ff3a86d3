import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { ingestEntry } from './ingest.entry';

runService(ingestEntry);
