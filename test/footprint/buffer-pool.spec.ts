import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/*
 * Node 24 cuts small Buffers from 64 KB slabs; at a service's everyday rates such a slab outlives
 * the young generation and its memory waits for a full collection (bench/README.md, "Memory").
 * Every service starts through startHttpService, which puts the slab back to 8 KB.
 */
describe('a service started by startHttpService', () => {
  it('cuts small Buffers from 8 KB slabs', () => {
    const script = `
      require('reflect-metadata');
      const pino = require('pino');
      const { Module } = require('@nestjs/common');
      const { startHttpService } = require('./libs/service/src/bootstrap');
      class Empty {}
      Module({})(Empty);
      startHttpService({ module: Empty, logger: pino({ enabled: false }), port: 0, host: '127.0.0.1', buildCommit: 'test' })
        .then(async (app) => {
          // The slab in use when the size changed is used up first.
          let last = Buffer.allocUnsafe(0);
          for (let i = 0; i < 20; i++) last = Buffer.allocUnsafe(4000);
          await app.close();
          process.stdout.write(String(last.buffer.byteLength));
        });`;
    const output = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(Number(output)).toBe(8 * 1024);
  });
});
