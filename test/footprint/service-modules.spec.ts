import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Loads the modules of ingest, the router and delivery in a fresh Node process, after `preamble`,
 * and returns what `report` (an expression) evaluates to there, as JSON.
 */
function loadServices(preamble: string, report: string): unknown {
  const script = `${preamble}
    for (const app of ['ingest', 'router', 'delivery']) require('./apps/' + app + '/src/' + app + '.module');
    process.stdout.write(JSON.stringify(${report}));`;
  const output = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output);
}

/*
 * Memory every service pays for what it does not use, measured in bench/README.md ("Memory"):
 * each check fails if a change or an upgrade brings the cost back.
 */
describe('the modules of ingest, the router and delivery', () => {
  it('leave @nestjs/swagger unloaded: only the console serves the OpenAPI document', () => {
    const loaded = loadServices(
      '',
      "Object.keys(require.cache).filter((file) => file.includes('/@nestjs/swagger/'))",
    );
    expect(loaded).toEqual([]);
  });

  it("take class-validator's decorators one module each, without its index and validator.js's whole library", () => {
    const loaded = loadServices(
      '',
      `Object.keys(require.cache).filter((file) =>
        file.endsWith('/class-validator/cjs/index.js') || file.includes('/libphonenumber-js/'))`,
    );
    expect(loaded).toEqual([]);
  });

  it('make no Intl formatter or collation while loading, which would page ICU data into the process', () => {
    const trap = `
      const made = [];
      for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator']) {
        const Real = Intl[name];
        Intl[name] = function (...args) { made.push('Intl.' + name); return new Real(...args); };
      }
      const compare = String.prototype.localeCompare;
      String.prototype.localeCompare = function (...args) { made.push('localeCompare'); return compare.apply(this, args); };`;
    expect(loadServices(trap, 'made')).toEqual([]);
  });
});
