import { allSettingsTables, SERVICE_NAMES, SERVICE_SETTINGS_TABLES } from './all-settings';
import { ConfigError } from './settings';
import { loadSettings, readSetting, Setting, settingText } from './settings-table';

/** Values that break some rule of every row that has one: bounds, words, patterns, presence. */
const BAD_VALUES = ['', 'not valid !', 'short', '-1', '99999999999', '1.5', 'x,y'];

/** Rows that take any text (file paths, a user name): nothing to refuse. */
const FREE_TEXT = [
  'KAFKA_SSL_CA_FILE',
  'KAFKA_SSL_CERT_FILE',
  'KAFKA_SSL_KEY_FILE',
  'KAFKA_SASL_USERNAME',
  'KAFKA_SASL_PASSWORD',
  'KAFKA_SASL_PASSWORD_FILE',
  'WORKSPACE_CONFIG',
  'API_TOKENS_FILE',
  'WORKSPACE_SEED_FILE',
];

const everyRow = SERVICE_NAMES.flatMap((service) =>
  SERVICE_SETTINGS_TABLES[service].flatMap((table) =>
    Object.values(table.rows as Record<string, Setting<unknown>>).map((row) => ({ service, row })),
  ),
);

function refused(row: Setting<unknown>): string | undefined {
  return BAD_VALUES.find((raw) => 'problem' in readSetting(row, { [row.env]: raw }));
}

describe('settings tables', () => {
  it.each(everyRow.map(({ service, row }) => [row.env, service, row] as const))(
    '%s: a bad value stops %s at start-up with an error naming the variable',
    (env, service, row) => {
      const bad = refused(row);
      if (FREE_TEXT.includes(env)) {
        expect(bad).toBeUndefined();
        return;
      }
      expect(bad).toBeDefined();
      const load = () =>
        loadSettings(
          Object as never,
          SERVICE_SETTINGS_TABLES[service],
          { WORKSPACE_CONFIG: '/dev/null', [env]: bad },
          service,
        );
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(new RegExp(`^  - ${env} (must|may)`, 'm'));
      if (row.secret && bad) expect(load).not.toThrow(`"${bad}"`);
    },
  );

  const defaultedRows = allSettingsTables().flatMap(({ table }) => Object.values(table.rows));

  it.each(defaultedRows.map((row) => [row.env, row] as const))(
    '%s: its default obeys its own rule',
    (_env, row) => {
      const text = settingText(row.default);
      expect(text === undefined ? { value: undefined } : readSetting(row, { [row.env]: text })).toEqual({
        value: row.default,
      });
    },
  );

  it('gives each variable one row within a service, and one meaning across services', () => {
    for (const service of SERVICE_NAMES) {
      const names = SERVICE_SETTINGS_TABLES[service].flatMap((t) => Object.values(t.rows).map((r) => r.env));
      expect(names).toEqual([...new Set(names)]);
    }
    const owners = new Map<string, string>();
    for (const { table } of allSettingsTables()) {
      for (const row of Object.values(table.rows)) {
        // Only the port differs per service: each service's table has its own row and default.
        if (row.env === 'PORT') continue;
        expect([row.env, owners.get(row.env) ?? table.title]).toEqual([row.env, table.title]);
        owners.set(row.env, table.title);
      }
    }
  });

  it('lists every table once, shared tables with every service that reads them', () => {
    const listed = allSettingsTables().map(({ table, services }) => [table.title, services]);
    expect(listed).toEqual([
      ['Every service', ['ingest', 'router', 'delivery', 'console']],
      ['Kafka connection', ['ingest', 'router', 'delivery', 'console']],
      ['Topics', ['ingest', 'router', 'delivery', 'console']],
      ['Admin token', ['ingest', 'delivery', 'console']],
      ['Ingest', ['ingest']],
      ['Router', ['router']],
      ['Delivery', ['delivery']],
      ['Console', ['console']],
    ]);
  });
});
