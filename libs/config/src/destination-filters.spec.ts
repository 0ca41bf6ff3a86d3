import { checkResource, checkWorkspace } from './workspace-config';
import { Destination } from './workspace-config';
import { MAX_CONDITION_NESTING, MAX_FILTER_LIST, MAX_FILTER_RULES } from './destination-filters';

const destination = (filters: unknown) => ({
  id: 'hooks',
  type: 'Webhooks',
  enabled: true,
  sources: [],
  settings: { webhooks: [{ url: 'http://127.0.0.1:9/' }] },
  filters,
});
const problemsOf = (filters: unknown) => checkResource(Destination, destination(filters)).problems;
const DROP = { drop: true };

/** `depth` nots around one field condition. */
const nested = (depth: number): object =>
  depth === 0 ? { field: 'type', exists: true } : { not: nested(depth - 1) };

describe('destination filters: validation', () => {
  it('accepts every operator and action, and keeps the rules as given', () => {
    const filters = [
      { name: 'no tests', if: { field: 'event', prefix: 'Test ' }, then: DROP },
      {
        name: 'a tenth of big EU orders',
        if: {
          and: [
            { field: 'properties.total', gte: 100 },
            {
              or: [
                { field: 'context.locale', in: ['de-DE', 'fr-FR'] },
                { not: { field: 'traits.vip', equals: true } },
              ],
            },
            { field: 'properties.total', gt: 0 },
            { field: 'properties.total', lt: 1e6 },
            { field: 'properties.total', lte: 1e6 },
            { field: 'type', equals: 'track' },
          ],
        },
        then: { sample: 10 },
      },
      { name: 'allow p', then: { allowProperties: ['total'] } },
      { name: 'allow t', then: { allowTraits: ['plan'] } },
      { name: 'rm p', then: { removeProperties: ['email'] } },
      { name: 'rm t', if: { field: 'traits.email', exists: true }, then: { removeTraits: ['email'] } },
    ];
    const check = checkResource(Destination, destination(filters));
    expect(check.problems).toEqual([]);
    expect(JSON.parse(JSON.stringify(check.value!.filters))).toEqual(filters);
  });

  it('a destination without filters stays valid', () => {
    const { filters: _none, ...plain } = destination(undefined);
    expect(checkResource(Destination, plain).problems).toEqual([]);
  });

  // [row, filters, the problem, naming its field]
  const table: Array<[string, unknown, string]> = [
    ['V01 not a list', { name: 'x' }, 'filters: must be a list of rules'],
    ['V02 a rule that is not an object', ['drop'], 'filters[0]: must list rule objects'],
    [
      'V03 a number expected',
      [{ name: 'a', if: { and: [{ field: 'properties.total', gt: 'big' }] }, then: DROP }],
      'filters[0].if.and[0].gt: must be a number',
    ],
    [
      'V04 unknown field in a condition',
      [{ name: 'a', if: { field: 'type', equals: 'x', equal: 'y' }, then: DROP }],
      'filters[0].if.equal: unknown field',
    ],
    ['V05 unknown field in a rule', [{ name: 'a', when: {}, then: DROP }], 'filters[0].when: unknown field'],
    [
      'V06 a field outside the filterable ones',
      [{ name: 'a', if: { field: 'userId', equals: 'x' }, then: DROP }],
      'filters[0].if.field: must be type, event, or a dotted path under properties., traits. or context.',
    ],
    [
      'V07 a bare properties path',
      [{ name: 'a', if: { field: 'properties', exists: true }, then: DROP }],
      'filters[0].if.field: must be type, event, or a dotted path under properties., traits. or context.',
    ],
    [
      'V08 no operator',
      [{ name: 'a', if: { field: 'type' }, then: DROP }],
      'filters[0].if.field: a condition needs exactly one of equals, in, exists, prefix, gt, gte, lt, lte',
    ],
    [
      'V09 two operators',
      [{ name: 'a', if: { field: 'properties.n', gt: 1, lt: 5 }, then: DROP }],
      'filters[0].if.field: a condition needs exactly one of equals, in, exists, prefix, gt, gte, lt, lte',
    ],
    [
      'V10 equals an object',
      [{ name: 'a', if: { field: 'type', equals: { a: 1 } }, then: DROP }],
      'filters[0].if.equals: must be a string, number or boolean',
    ],
    [
      'V11 in with an object',
      [{ name: 'a', if: { field: 'type', in: ['a', [1]] }, then: DROP }],
      'filters[0].if.in: must list strings, numbers or booleans',
    ],
    [
      'V12 in too long',
      [
        {
          name: 'a',
          if: { field: 'type', in: Array.from({ length: MAX_FILTER_LIST + 1 }, (_, i) => i) },
          then: DROP,
        },
      ],
      `filters[0].if.in: may list at most ${MAX_FILTER_LIST} values`,
    ],
    [
      'V13 in empty',
      [{ name: 'a', if: { field: 'type', in: [] }, then: DROP }],
      'filters[0].if.in: must list at least one value',
    ],
    [
      'V14 exists not a boolean',
      [{ name: 'a', if: { field: 'type', exists: 'yes' }, then: DROP }],
      'filters[0].if.exists: must be true or false',
    ],
    [
      'V15 prefix not a string',
      [{ name: 'a', if: { field: 'event', prefix: 3 }, then: DROP }],
      'filters[0].if.prefix: must be a string',
    ],
    [
      'V16 and not a list',
      [{ name: 'a', if: { and: { field: 'type', equals: 'x' } }, then: DROP }],
      'filters[0].if.and: must be a list of conditions',
    ],
    [
      'V17 and empty',
      [{ name: 'a', if: { or: [] }, then: DROP }],
      'filters[0].if.or: must list at least one condition',
    ],
    [
      'V18 and with a non-condition',
      [{ name: 'a', if: { and: [5] }, then: DROP }],
      'filters[0].if.and[0]: must list condition objects',
    ],
    [
      'V19 if not an object',
      [{ name: 'a', if: 'type == track', then: DROP }],
      'filters[0].if: must be a condition object',
    ],
    [
      'V20 nested too deep',
      [{ name: 'a', if: nested(MAX_CONDITION_NESTING + 1), then: DROP }],
      `filters[0].if${'.not'.repeat(MAX_CONDITION_NESTING + 1)}: conditions may nest at most ${MAX_CONDITION_NESTING} levels of and / or / not`,
    ],
    [
      'V21 no action',
      [{ name: 'a', then: {} }],
      'filters[0].then: must hold exactly one of drop, sample, allowProperties, allowTraits, removeProperties, removeTraits',
    ],
    [
      'V22 two actions',
      [{ name: 'a', then: { drop: true, sample: 5 } }],
      'filters[0].then: must hold exactly one of drop, sample, allowProperties, allowTraits, removeProperties, removeTraits',
    ],
    [
      'V23 action as a string',
      [{ name: 'a', then: 'drop' }],
      'filters[0].then: must hold exactly one of drop, sample, allowProperties, allowTraits, removeProperties, removeTraits',
    ],
    ['V24 drop false', [{ name: 'a', then: { drop: false } }], 'filters[0].then.drop: must be true'],
    [
      'V25 sample above 100',
      [{ name: 'a', then: { sample: 101 } }],
      'filters[0].then.sample: must be a percentage from 0 to 100',
    ],
    [
      'V26 sample not a number',
      [{ name: 'a', then: { sample: '10%' } }],
      'filters[0].then.sample: must be a number',
    ],
    [
      'V27 property list with a number',
      [{ name: 'a', then: { allowProperties: ['a', 3] } }],
      'filters[0].then.allowProperties: must list names (strings)',
    ],
    [
      'V28 unknown action',
      [{ name: 'a', then: { keep: ['a'] } }],
      'filters[0].then: must hold exactly one of drop, sample, allowProperties, allowTraits, removeProperties, removeTraits',
    ],
    ['V29 rule without a name', [{ then: DROP }], 'filters[0].name: must be a string'],
    [
      'V30 rule name with odd characters',
      [{ name: 'a/b', then: DROP }],
      'filters[0].name: may hold letters, digits, space, dot, dash and underscore (1-64)',
    ],
    [
      'V31 names used twice',
      [
        { name: 'a', then: DROP },
        { name: 'a', then: { sample: 1 } },
      ],
      'filters: rule names must be unique: "a" is used twice',
    ],
    [
      'V32 too many rules',
      Array.from({ length: MAX_FILTER_RULES + 1 }, (_, i) => ({ name: `r${i}`, then: DROP })),
      `filters: may hold at most ${MAX_FILTER_RULES} rules`,
    ],
  ];

  it.each(table)('%s', (_row, filters, problem) => {
    expect(problemsOf(filters)).toContain(problem);
  });

  it(`accepts ${MAX_CONDITION_NESTING} levels of nesting`, () => {
    expect(problemsOf([{ name: 'a', if: nested(MAX_CONDITION_NESTING), then: DROP }])).toEqual([]);
  });

  it('refuses a whole workspace file for one bad rule, naming the destination', () => {
    const check = checkWorkspace({
      sources: [],
      destinations: [
        destination([
          { name: 'ok', then: DROP },
          { name: 'bad', then: { sample: -1 } },
        ]),
      ],
    });
    expect(check.value).toBeUndefined();
    expect(check.problems).toEqual([
      'destinations[0].filters[1].then.sample: must be a percentage from 0 to 100',
    ]);
  });
});
