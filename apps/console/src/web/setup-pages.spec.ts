import type { WorkspaceAuditRecord } from '@switchyard/contracts';
import type { DestinationSummary } from '../console-views';
import { auditPage, changedFields } from './audit-page';
import {
  destinationBody,
  destinationFormOf,
  emptyDestinationForm,
  readDestinationForm,
} from './destination-form';
import {
  destinationFormPage,
  destinationSetup,
  destinationsPage,
  testResultsPage,
} from './destination-pages';
import { escapeHtml, SafeHtml } from './html';
import { deadLettersPage } from './pages';
import { newSourcePage, sourceBody, sourcesPage, writeKeyPage } from './source-pages';

/** Markup that would run or break out of its attribute if a page failed to escape it. */
const HOSTILE = `<img src=x onerror=alert(1)>"'\``;
const NAV = [{ id: 'web', name: HOSTILE }];
const WRITE_KEY = 'sk_full-write-key-0123456789abcdef';
const PREVIOUS_KEY = 'sk_previous-key-0123456789abcdef';

const source = {
  revision: 3,
  resource: { id: 'web', name: HOSTILE, writeKey: WRITE_KEY, allowedOrigins: [HOSTILE] },
};
const rotating = { revision: 4, resource: { ...source.resource, previousWriteKey: PREVIOUS_KEY } };

/** A destination as the API answers it: secrets masked. */
const destination = {
  revision: 2,
  resource: {
    id: 'hooks',
    type: 'Webhooks',
    name: HOSTILE,
    enabled: true,
    sources: ['web'],
    settings: {
      sharedSecret: '••••cdef',
      webhooks: [{ url: `https://a.example/?q=${HOSTILE}`, headers: { [HOSTILE]: '••••7890' } }],
    },
  },
};

const health = {
  requests: 0,
  successRate: null,
  p50Ms: null,
  p99Ms: null,
  circuits: [],
  lastAttemptAt: null,
} as unknown as DestinationSummary['health'];

function expectEscaped(page: SafeHtml) {
  expect(page.markup).not.toContain('<img');
  expect(page.markup).not.toContain(`"'`);
  expect(page.markup).toContain(escapeHtml(HOSTILE));
}

/** The forms of a page that change something: every POST form but the header's log-out. */
const changeForms = (page: SafeHtml) =>
  (page.markup.match(/<form [^>]*method="post"[^>]*>/g) ?? []).filter((f) => !f.includes('/logout'));

describe('the setup pages', () => {
  it('escape every value a user gave, in text and attributes', () => {
    const form = { ...destinationFormOf(destination.resource, 2), name: HOSTILE, id: HOSTILE };
    form.urls[1] = {
      url: HOSTILE,
      headers: form.urls[1].headers.map(() => ({ name: HOSTILE, value: HOSTILE })),
    };
    const refused = { message: HOSTILE, problems: [HOSTILE] };
    const record: WorkspaceAuditRecord = {
      at: '2026-01-02T03:04:05.000Z',
      actor: 'ops',
      action: 'update',
      kind: 'destination',
      id: 'hooks',
      revision: 2,
      before: { name: 'old' },
      after: { name: HOSTILE },
    };
    const pages = [
      sourcesPage([source, rotating], true, NAV),
      newSourcePage({ id: HOSTILE, name: HOSTILE, allowedOrigins: HOSTILE }, NAV, refused),
      writeKeyPage(source, 'created', 'http://127.0.0.1:8080', NAV),
      destinationsPage([{ id: 'hooks', health }], [destination], true, NAV),
      destinationFormPage({ create: true }, form, { choices: NAV, refused }, NAV),
      auditPage([record], { id: HOSTILE, from: HOSTILE }, NAV),
      testResultsPage(
        'hooks',
        { results: [{ url: HOSTILE, status: 500, durationMs: 12, bodyStart: HOSTILE, error: HOSTILE }] },
        NAV,
      ),
    ];
    pages.forEach(expectEscaped);
    expectEscaped(destinationSetup(destination, true));
  });

  it('show a write key in full only on the page that answers its creation or rotation', () => {
    expect(writeKeyPage(source, 'created', 'http://127.0.0.1:8080', NAV).markup).toContain(
      `<code class="write-key" id="write-key">${WRITE_KEY}</code>`,
    );
    expect(writeKeyPage(rotating, 'rotated', 'http://127.0.0.1:8080', NAV).markup).not.toContain(
      PREVIOUS_KEY,
    );
    const list = sourcesPage([source, rotating], true, NAV).markup;
    expect(list).not.toContain(WRITE_KEY);
    expect(list).not.toContain(PREVIOUS_KEY);
    expect(list).toContain('••••cdef');
  });

  it('offer retiring the previous key once a rotation has started, and rotating otherwise', () => {
    const list = sourcesPage([source, rotating], true, NAV).markup;
    expect(list).toContain('action="/sources/web/rotate"');
    expect(list).toContain('action="/sources/web/retire"');
    expect(writeKeyPage(rotating, 'rotated', 'http://127.0.0.1:8080', NAV).markup).toContain(
      '<input type="hidden" name="revision" value="4">',
    );
  });

  it('never put a shared secret into the form, whether stored (masked) or just typed', () => {
    const edit = destinationFormOf(destination.resource, 2);
    const typed = { ...edit, sharedSecret: 'typed-secret-never-echoed' };
    const page = destinationFormPage(
      { create: false, id: 'hooks' },
      typed,
      { choices: NAV, storedSecretMask: '••••cdef', refused: { message: 'no', problems: [] } },
      NAV,
    ).markup;
    expect(page).not.toContain('typed-secret-never-echoed');
    expect(page).toMatch(
      /<input type="password" id="destination-sharedSecret" name="sharedSecret" autocomplete="new-password" size="40">/,
    );
    expect(page).toContain('stored: ••••cdef');
    expect(page).toContain('<input type="hidden" name="revision" value="2">');
  });

  it('post back exactly what the form shows: its controls read into the same destination', () => {
    const page = destinationFormPage(
      { create: false, id: 'hooks' },
      destinationFormOf(destination.resource, 2),
      { choices: [{ id: 'web', name: 'Website' }], storedSecretMask: '••••cdef' },
      NAV,
    ).markup;
    const posted: Record<string, string> = {};
    for (const [, attributes] of page.matchAll(/<input ([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(attributes)?.[1];
      const value = /value="([^"]*)"/.exec(attributes)?.[1] ?? '';
      if (!name || (attributes.includes('type="checkbox"') && !/\schecked\b/.test(attributes))) continue;
      posted[decode(name)] = decode(value);
    }
    const read = readDestinationForm(posted, ['web']);
    expect(destinationBody({ ...read, id: '' }, '••••cdef').body).toEqual({
      ...destination.resource,
      id: undefined,
    });
  });

  it('hide every form from a viewer', () => {
    expect(changeForms(sourcesPage([source, rotating], false, NAV))).toEqual([]);
    expect(changeForms(destinationsPage([{ id: 'hooks', health }], [destination], false, NAV))).toEqual([]);
    expect(changeForms(destinationSetup(destination, false))).toEqual([]);
    expect(changeForms(deadLettersPage([{ deadLetter: { id: '0:1' } as never }], NAV, false))).toEqual([]);
    expect(sourcesPage([source], false, NAV).markup).not.toContain('/sources/new');
    expect(changeForms(destinationSetup(destination, true)).length).toBe(1);
  });

  it('list the destinations that only have attempts left beside the configured ones', () => {
    const page = destinationsPage(
      [
        { id: 'hooks', health },
        { id: 'gone', health },
      ],
      [destination],
      true,
      NAV,
    ).markup;
    expect(page.match(/<tr class="destination"/g)).toHaveLength(2);
    expect(page).toContain('(not configured)');
    expect(page).toContain('href="/destinations/hooks/edit"');
    expect(page).not.toContain('href="/destinations/gone/edit"');
  });
});

describe('the new-source form', () => {
  it('splits allowed origins on spaces, commas and lines, and leaves them out when none are typed', () => {
    expect(
      sourceBody({ id: 'web', name: 'Web', allowedOrigins: 'https://a.example,\nhttps://*.b.example  ' }),
    ).toEqual({
      id: 'web',
      name: 'Web',
      allowedOrigins: ['https://a.example', 'https://*.b.example'],
    });
    expect(sourceBody({ id: 'web', name: 'Web', allowedOrigins: ' \n ' })).toEqual({
      id: 'web',
      name: 'Web',
    });
  });
});

describe('changedFields', () => {
  it('names each leaf a change added, removed or changed, by its path', () => {
    expect(
      changedFields(
        {
          enabled: true,
          sources: ['web'],
          settings: { webhooks: [{ url: 'https://a' }], sharedSecret: '••••' },
        },
        { enabled: false, sources: ['web', 'ios'], settings: { webhooks: [{ url: 'https://b' }] } },
      ),
    ).toEqual(['enabled', 'settings.webhooks[0].url', 'settings.sharedSecret', 'sources[1]']);
  });
});

test('an empty form starts enabled, with five URL rows of three header rows', () => {
  const form = emptyDestinationForm();
  expect([form.enabled, form.urls.length, form.urls[4].headers.length]).toEqual([true, 5, 3]);
});

function decode(attribute: string): string {
  return attribute
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
