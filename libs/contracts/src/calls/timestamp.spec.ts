import { normaliseTimestamp } from './timestamp';

describe('normaliseTimestamp', () => {
  it.each([
    ['2015-01-02T03:04:05Z', '2015-01-02T03:04:05.000Z'],
    ['2015-01-02T03:04:05.123Z', '2015-01-02T03:04:05.123Z'],
    ['2015-01-02T03:04:05.123456789Z', '2015-01-02T03:04:05.123Z'],
    ['2015-01-02T03:04:05.1Z', '2015-01-02T03:04:05.100Z'],
    // analytics-go v1/v2: offset without a colon, no fraction.
    ['2006-01-02T15:04:05-0700', '2006-01-02T22:04:05.000Z'],
    ['2006-01-02T15:04:05+05:30', '2006-01-02T09:34:05.000Z'],
    ['2006-01-02T15:04:05+02', '2006-01-02T13:04:05.000Z'],
    ['2006-01-02T15:04', '2006-01-02T15:04:00.000Z'],
    ['2006-01-02 15:04:05Z', '2006-01-02T15:04:05.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(normaliseTimestamp(input)).toBe(expected);
  });

  it.each([
    ['not a date'],
    ['2015-02-30T00:00:00Z'],
    ['2015-13-01T00:00:00Z'],
    ['2015-01-01'],
    [''],
    [1420167845000],
    [null],
  ])('refuses %p', (input) => {
    expect(normaliseTimestamp(input)).toBeUndefined();
  });
});
