import pino from 'pino';
import { encodeWorkspaceEntry, workspaceRecordKey } from '@switchyard/contracts';
import { WorkspaceState } from './workspace-state';
import { WorkspaceTopic } from './workspace-topic';

const entry = (resource: Record<string, unknown>) =>
  encodeWorkspaceEntry({ revision: 1, changedAt: '2026-01-01T00:00:00.000Z', changedBy: 'ops', resource });
const record = (key: string, value: Buffer | null, offset: number) => ({
  key: Buffer.from(key),
  value,
  offset: String(offset),
});

describe('WorkspaceTopic', () => {
  it('applies a batch in order, tells listeners once, and skips what it cannot read', () => {
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => lines.push(line) });
    const workspace = new WorkspaceTopic(new WorkspaceState(undefined), logger);
    const changes: number[] = [];
    workspace.onChange((config) => changes.push(config.sources.length));
    workspace.apply([
      record(
        workspaceRecordKey('source', 'web'),
        entry({ id: 'web', name: 'Web', writeKey: 'write-key-0001' }),
        0,
      ),
      record(workspaceRecordKey('source', 'bad'), Buffer.from('{'), 1),
      record(
        workspaceRecordKey('source', 'app'),
        entry({ id: 'app', name: 'App', writeKey: 'write-key-0002' }),
        2,
      ),
    ]);
    expect(changes).toEqual([2]);
    expect(workspace.sourceByWriteKey('write-key-0002')?.id).toBe('app');
    expect(workspace.version).toBe('offset-3');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      key: 'source:bad',
      offset: '1',
      msg: expect.stringContaining('skipped'),
    });
    workspace.apply([record(workspaceRecordKey('source', 'web'), null, 3)]);
    expect(workspace.source('web')).toBeUndefined();
  });
});
