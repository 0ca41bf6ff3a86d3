import './instrument';
import 'reflect-metadata';
import { runService } from '@switchyard/service';
import { routerEntry } from './router.entry';

runService(routerEntry);
