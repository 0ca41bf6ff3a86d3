import {
  decodeWorkspaceEntry,
  encodeWorkspaceEntry,
  parseWorkspaceRecordKey,
  workspaceRecordKey,
} from './workspace-record';

describe('workspace records', () => {
  it('keys a resource by kind and id, and reads the key back', () => {
    expect(workspaceRecordKey('destination', 'hooks:1')).toBe('destination:hooks:1');
    expect(parseWorkspaceRecordKey('destination:hooks:1')).toEqual({ kind: 'destination', id: 'hooks:1' });
    expect(parseWorkspaceRecordKey('widget:1')).toBeUndefined();
    expect(parseWorkspaceRecordKey('source:')).toBeUndefined();
    expect(parseWorkspaceRecordKey('source')).toBeUndefined();
  });

  it('round-trips an entry and names what is wrong with a bad one', () => {
    const entry = {
      revision: 3,
      changedAt: '2026-01-01T00:00:00.000Z',
      changedBy: 'ops',
      resource: { id: 'a' },
    };
    expect(decodeWorkspaceEntry(encodeWorkspaceEntry(entry))).toEqual(entry);
    expect(() => decodeWorkspaceEntry(Buffer.from('{'))).toThrow(SyntaxError);
    expect(() => decodeWorkspaceEntry(Buffer.from('null'))).toThrow('not a JSON object');
    expect(() => decodeWorkspaceEntry(encodeWorkspaceEntry({ ...entry, revision: 0 }))).toThrow('revision');
    expect(() => decodeWorkspaceEntry(encodeWorkspaceEntry({ ...entry, resource: [] as never }))).toThrow(
      'resource must be an object',
    );
  });
});
