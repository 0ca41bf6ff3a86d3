import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { hmacSha1Hex } from './hmac-sha1';

describe('hmacSha1Hex', () => {
  it('matches RFC 2202 test case 2', () => {
    expect(hmacSha1Hex('Jefe', 'what do ya want for nothing?')).toBe(
      'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79',
    );
  });

  it("equals Node's createHmac over random keys (short, a block long, longer, non-ASCII) and messages", () => {
    const alphabet = 'abcXYZ019 ~é漢🙂';
    const randomText = (length: number) =>
      Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
    for (let i = 0; i < 3_000; i++) {
      const key = randomText([0, 1, 20, 63, 64, 65, 200][i % 7] + randomInt(3));
      const message = i % 2 === 0 ? randomBytes(randomInt(5_000)) : randomText(randomInt(300));
      expect([key, hmacSha1Hex(key, message)]).toEqual([
        key,
        createHmac('sha1', key).update(message).digest('hex'),
      ]);
    }
  });
});
