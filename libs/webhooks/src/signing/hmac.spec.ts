import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { HmacAlgorithm, HmacKey, hmacSha1Hex } from './hmac';

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

describe('HmacKey', () => {
  it('matches RFC 4231 test case 2 for SHA-256', () => {
    const key = new HmacKey('sha256', Buffer.from('Jefe'));
    expect(key.digest([Buffer.from('what do ya want '), Buffer.from('for nothing?')], 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it.each<HmacAlgorithm>(['sha1', 'sha256'])(
    "equals Node's createHmac for %s over random byte keys and messages in parts",
    (algorithm) => {
      for (let i = 0; i < 1_000; i++) {
        const key = randomBytes([0, 24, 32, 64, 65, 100][i % 6]);
        const parts = [randomBytes(randomInt(40)), randomBytes(randomInt(2_000))];
        expect(new HmacKey(algorithm, key).digest(parts, 'base64')).toBe(
          createHmac(algorithm, key).update(Buffer.concat(parts)).digest('base64'),
        );
      }
    },
  );
});
