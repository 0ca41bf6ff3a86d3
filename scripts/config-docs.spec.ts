import { readFileSync } from 'node:fs';
import { CONFIGURATION_DOC, configurationReference } from './config-docs';

describe('docs/configuration.md', () => {
  it('is what the settings tables generate (run `npm run docs:config` after changing a table)', () => {
    expect(readFileSync(CONFIGURATION_DOC, 'utf8')).toBe(configurationReference());
  });
});
