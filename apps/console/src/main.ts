import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { consoleEntry } from './console.entry';

runService(consoleEntry);
