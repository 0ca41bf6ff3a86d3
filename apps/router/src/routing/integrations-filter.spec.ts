import { integrationAllows } from './integrations-filter';

describe("integrationAllows (Segment's integrations object)", () => {
  // [rule, integrations, expected for the destination key "Webhooks"]
  const table: Array<[string, Record<string, unknown> | undefined, boolean]> = [
    ['R01 no integrations object: on by default', undefined, true],
    ['R02 empty object: on by default', {}, true],
    ['R03 other destinations mentioned only: on', { Mixpanel: false }, true],
    ['R04 own key true: on', { Webhooks: true }, true],
    ['R05 own key false: off', { Webhooks: false }, false],
    ['R06 All true: on', { All: true }, true],
    ['R07 All false: off', { All: false }, false],
    ['R08 All false, own key true: on', { All: false, Webhooks: true }, true],
    ['R09 All false, another key true: off', { All: false, Mixpanel: true }, false],
    ['R10 All true, own key false: off', { All: true, Webhooks: false }, false],
    ['R11 keys are case-sensitive: "webhooks" false leaves it on', { webhooks: false }, true],
    [
      'R12 keys are case-sensitive: All false, "webhooks" true leaves it off',
      { All: false, webhooks: true },
      false,
    ],
    ['R13 "all" in lower case is not the All key', { all: false }, true],
    ['R14 options object under own key: on', { Webhooks: { retries: 2 } }, true],
    ['R15 options object under own key beats All false', { All: false, Webhooks: {} }, true],
    ['R16 string value is ignored: All decides (on)', { Webhooks: 'false' }, true],
    ['R17 string value is ignored: All decides (off)', { All: false, Webhooks: 'true' }, false],
    ['R18 number value is ignored', { All: false, Webhooks: 1 }, false],
    ['R19 null value is ignored', { Webhooks: null }, true],
    ['R20 array value is ignored', { All: false, Webhooks: [true] }, false],
    ['R21 non-boolean All is ignored: on', { All: 'false' }, true],
    ['R22 non-boolean All with own key false: off', { All: 0, Webhooks: false }, false],
  ];

  it.each(table)('%s', (_rule, integrations, expected) => {
    expect(integrationAllows(integrations, 'Webhooks')).toBe(expected);
  });

  it('uses the key it is given (a destination with its own name)', () => {
    expect(integrationAllows({ All: false, 'Hooks EU': true }, 'Hooks EU')).toBe(true);
    expect(integrationAllows({ All: false, Webhooks: true }, 'Hooks EU')).toBe(false);
  });
});
