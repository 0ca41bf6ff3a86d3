import { checkResource, Destination, FilterRule } from '@switchyard/config';
import { WebhookEnvelope } from '@switchyard/contracts';
import { compileFilters, filtersOf, FilterVerdict, sampleShare } from './destination-filters';

/** Rules as a workspace file holds them, through the validator the file and the API use. */
function rules(...plain: object[]): FilterRule[] {
  const check = checkResource(Destination, {
    id: 'd',
    type: 'Webhooks',
    enabled: true,
    sources: [],
    settings: { webhooks: [{ url: 'http://127.0.0.1:9/' }] },
    filters: plain,
  });
  if (!check.value) throw new Error(check.problems.join('; '));
  return check.value.filters!;
}

const track: WebhookEnvelope = {
  version: 1,
  type: 'track',
  messageId: 'm-1',
  event: 'Order Completed',
  properties: { total: 120, currency: 'EUR', coupon: null, cart: { items: 3 }, email: 'a@example.com' },
  context: { library: { name: 'analytics-node' }, locale: 'de-DE' },
};
const identify: WebhookEnvelope = {
  version: 1,
  type: 'identify',
  messageId: 'm-2',
  traits: { email: 'a@example.com', plan: 'pro', name: 'Ada' },
  context: {},
};

const DROP = { drop: true };
const dropped = (rule: string): FilterVerdict => ({ filtered: { rule, action: 'drop' } });
const sent = (body: WebhookEnvelope): FilterVerdict => ({ send: body });

describe('destination filters: each operator', () => {
  // [row, condition, body, dropped?]
  const table: Array<[string, object, WebhookEnvelope, boolean]> = [
    ['C01 equals on type: same', { field: 'type', equals: 'track' }, track, true],
    ['C02 equals on type: other', { field: 'type', equals: 'page' }, track, false],
    ['C03 equals on event', { field: 'event', equals: 'Order Completed' }, track, true],
    ['C04 equals is exact: case matters', { field: 'event', equals: 'order completed' }, track, false],
    ['C05 equals a number', { field: 'properties.total', equals: 120 }, track, true],
    [
      'C06 equals does not convert: "120" is not 120',
      { field: 'properties.total', equals: '120' },
      track,
      false,
    ],
    ['C07 equals on a nested path', { field: 'properties.cart.items', equals: 3 }, track, true],
    ['C08 equals on context', { field: 'context.library.name', equals: 'analytics-node' }, track, true],
    ['C09 equals on traits', { field: 'traits.plan', equals: 'pro' }, identify, true],
    ['C10 in: one of the values', { field: 'properties.currency', in: ['USD', 'EUR'] }, track, true],
    ['C11 in: none of the values', { field: 'properties.currency', in: ['USD', 'GBP'] }, track, false],
    ['C12 in: numbers', { field: 'properties.total', in: [100, 120] }, track, true],
    ['C13 exists: present', { field: 'properties.email', exists: true }, track, true],
    ['C14 exists: absent', { field: 'properties.phone', exists: true }, track, false],
    ['C15 exists: null counts as absent', { field: 'properties.coupon', exists: true }, track, false],
    ['C16 exists false: absent', { field: 'properties.phone', exists: false }, track, true],
    ['C17 exists on a path through a missing object', { field: 'traits.email', exists: true }, track, false],
    ['C18 prefix: matches', { field: 'event', prefix: 'Order ' }, track, true],
    ['C19 prefix: does not match', { field: 'event', prefix: 'Test ' }, track, false],
    ['C20 prefix on a number: no match', { field: 'properties.total', prefix: '1' }, track, false],
    ['C21 gt: above', { field: 'properties.total', gt: 100 }, track, true],
    ['C22 gt: equal is not above', { field: 'properties.total', gt: 120 }, track, false],
    ['C23 gte: equal', { field: 'properties.total', gte: 120 }, track, true],
    ['C24 lt: below', { field: 'properties.total', lt: 121 }, track, true],
    ['C25 lt: equal is not below', { field: 'properties.total', lt: 120 }, track, false],
    ['C26 lte: equal', { field: 'properties.total', lte: 120 }, track, true],
    ['C27 numeric operators skip strings', { field: 'properties.currency', gt: 0 }, track, false],
    ['C28 numeric operators skip a missing field', { field: 'properties.tax', lt: 1 }, track, false],
    [
      'C29 and: all hold',
      {
        and: [
          { field: 'type', equals: 'track' },
          { field: 'properties.total', gt: 100 },
        ],
      },
      track,
      true,
    ],
    [
      'C30 and: one fails',
      {
        and: [
          { field: 'type', equals: 'track' },
          { field: 'properties.total', gt: 500 },
        ],
      },
      track,
      false,
    ],
    [
      'C31 or: one holds',
      {
        or: [
          { field: 'type', equals: 'page' },
          { field: 'event', prefix: 'Order' },
        ],
      },
      track,
      true,
    ],
    [
      'C32 or: none holds',
      {
        or: [
          { field: 'type', equals: 'page' },
          { field: 'event', prefix: 'Test' },
        ],
      },
      track,
      false,
    ],
    ['C33 not: inverts a match', { not: { field: 'type', equals: 'track' } }, track, false],
    ['C34 not: inverts a miss', { not: { field: 'type', equals: 'page' } }, track, true],
    [
      'C35 nested: not (a or b) and c',
      {
        and: [
          {
            not: {
              or: [
                { field: 'type', equals: 'page' },
                { field: 'event', equals: 'Test' },
              ],
            },
          },
          { field: 'context.locale', prefix: 'de' },
        ],
      },
      track,
      true,
    ],
  ];

  it.each(table)('%s', (row, condition, body, expected) => {
    const filters = compileFilters(rules({ name: row.slice(0, 3), if: condition, then: DROP }));
    expect(filters(body, String(body.messageId))).toEqual(expected ? dropped(row.slice(0, 3)) : sent(body));
  });
});

describe('destination filters: each action', () => {
  it('A01 drop stops the call at its rule', () => {
    expect(compileFilters(rules({ name: 'no orders', then: DROP }))(track, 'm-1')).toEqual(
      dropped('no orders'),
    );
  });

  it('A02 a rule without a condition applies to every call', () => {
    const filters = compileFilters(rules({ name: 'all', then: { removeTraits: ['email'] } }));
    expect(filters(identify, 'm-2')).toEqual(sent({ ...identify, traits: { plan: 'pro', name: 'Ada' } }));
  });

  it('A03 sample keeps the messages whose share falls under the percentage, and decides the same again', () => {
    const filters = compileFilters(rules({ name: 'tenth', then: { sample: 10 } }));
    const ids = Array.from({ length: 200 }, (_, i) => `message-${i}`);
    const decide = () => ids.map((id) => 'send' in filters(track, id));
    const first = decide();
    expect(first).toEqual(ids.map((id) => sampleShare(id, 'tenth') < 0.1));
    expect(first.filter(Boolean).length).toBeGreaterThan(0);
    expect(first.filter((kept) => !kept).length).toBeGreaterThan(0);
    expect(decide()).toEqual(first);
    const skipped = ids.find((_, i) => !first[i])!;
    expect(filters(track, skipped)).toEqual({ filtered: { rule: 'tenth', action: 'sample' } });
  });

  it('A04 sample 0 keeps none, sample 100 keeps all', () => {
    const none = compileFilters(rules({ name: 'none', then: { sample: 0 } }));
    const all = compileFilters(rules({ name: 'all', then: { sample: 100 } }));
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(none(track, id)).toEqual({ filtered: { rule: 'none', action: 'sample' } });
      expect(all(track, id)).toEqual(sent(track));
    }
  });

  it('A05 two rules sample independently: the share depends on the rule name too', () => {
    expect(sampleShare('m-1', 'a')).not.toEqual(sampleShare('m-1', 'b'));
    expect(sampleShare('m-1', 'a')).toBeGreaterThanOrEqual(0);
    expect(sampleShare('m-1', 'a')).toBeLessThan(1);
  });

  it('A06 allowProperties keeps only the listed properties that exist', () => {
    const filters = compileFilters(rules({ name: 'allow', then: { allowProperties: ['total', 'sku'] } }));
    expect(filters(track, 'm-1')).toEqual(sent({ ...track, properties: { total: 120 } }));
  });

  it('A07 removeProperties removes the listed properties', () => {
    const filters = compileFilters(rules({ name: 'rm', then: { removeProperties: ['email', 'cart'] } }));
    expect(filters(track, 'm-1')).toEqual(
      sent({ ...track, properties: { total: 120, currency: 'EUR', coupon: null } }),
    );
  });

  it('A08 allowTraits keeps only the listed traits', () => {
    const filters = compileFilters(rules({ name: 'allow', then: { allowTraits: ['plan'] } }));
    expect(filters(identify, 'm-2')).toEqual(sent({ ...identify, traits: { plan: 'pro' } }));
  });

  it('A09 removeTraits removes the listed traits', () => {
    const filters = compileFilters(rules({ name: 'rm', then: { removeTraits: ['email', 'name'] } }));
    expect(filters(identify, 'm-2')).toEqual(sent({ ...identify, traits: { plan: 'pro' } }));
  });

  it('A10 a property action on a call without properties leaves the body as it is', () => {
    const filters = compileFilters(rules({ name: 'allow', then: { allowProperties: ['total'] } }));
    expect((filters(identify, 'm-2') as { send: WebhookEnvelope }).send).toBe(identify);
  });

  it('A11 reshaping copies: the body other destinations share is untouched', () => {
    const before = structuredClone(track);
    compileFilters(rules({ name: 'rm', then: { removeProperties: ['email'] } }))(track, 'm-1');
    expect(track).toEqual(before);
  });
});

describe('destination filters: rules in order', () => {
  it('O01 each rule sees the body the rules before it made', () => {
    const filters = compileFilters(
      rules(
        { name: 'strip', then: { removeProperties: ['total'] } },
        { name: 'big orders', if: { field: 'properties.total', gt: 100 }, then: DROP },
      ),
    );
    expect(filters(track, 'm-1')).toEqual(sent({ ...track, properties: withoutTotal(track) }));
  });

  it('O02 a drop stops there: later rules do not run', () => {
    const filters = compileFilters(
      rules(
        { name: 'orders', if: { field: 'event', prefix: 'Order' }, then: DROP },
        { name: 'everything', then: DROP },
      ),
    );
    expect(filters(track, 'm-1')).toEqual(dropped('orders'));
  });

  it('O03 a call no rule matches is sent as it came, the same object', () => {
    const filters = compileFilters(
      rules({ name: 'pages', if: { field: 'type', equals: 'page' }, then: DROP }),
    );
    expect((filters(track, 'm-1') as { send: WebhookEnvelope }).send).toBe(track);
  });
});

describe('filtersOf', () => {
  const destination = (filters?: object[]) =>
    checkResource(Destination, {
      id: 'd',
      type: 'Webhooks',
      enabled: true,
      sources: [],
      settings: { webhooks: [{ url: 'http://127.0.0.1:9/' }] },
      ...(filters ? { filters } : {}),
    }).value!;

  it('has nothing to run for a destination without rules', () => {
    expect(filtersOf(destination())).toBeUndefined();
    expect(filtersOf(destination([]))).toBeUndefined();
  });

  it('compiles once per destination object, and anew for the object a workspace change brings', () => {
    const before = destination([{ name: 'x', then: DROP }]);
    expect(filtersOf(before)).toBe(filtersOf(before));
    expect(filtersOf(destination([{ name: 'x', then: DROP }]))).not.toBe(filtersOf(before));
  });
});

function withoutTotal(body: WebhookEnvelope): Record<string, unknown> {
  const { total: _total, ...rest } = body.properties as Record<string, unknown>;
  return rest;
}
