import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A workspace configuration written to a temporary file; `update` rewrites it atomically, as an editor would. */
export class WorkspaceFile {
  readonly path: string;

  constructor(config: object) {
    this.path = join(mkdtempSync(join(tmpdir(), 'switchyard-ws-')), 'workspace.json');
    this.update(config);
  }

  /** Deletes the file and its temporary folder. */
  remove = (): void => {
    rmSync(dirname(this.path), { recursive: true, force: true });
  };

  update(config: object | string): void {
    const next = `${this.path}.next`;
    writeFileSync(next, typeof config === 'string' ? config : JSON.stringify(config, null, 2));
    renameSync(next, this.path);
  }
}

export const TEST_WRITE_KEY = 'test-write-key-0001';

/** One source, one Webhooks destination pointing at `urls`. */
export function simpleWorkspace(urls: string[] = ['http://127.0.0.1:9/unused'], sharedSecret?: string) {
  return {
    sources: [{ id: 'src-1', name: 'Test source', writeKey: TEST_WRITE_KEY }],
    destinations: [
      {
        id: 'dest-1',
        type: 'Webhooks',
        enabled: true,
        sources: ['src-1'],
        settings: { ...(sharedSecret ? { sharedSecret } : {}), webhooks: urls.map((url) => ({ url })) },
      },
    ],
  };
}
