/**
 * What ingest's body checks cost, on a /v1/batch body of 100 ~500-byte events:
 * JSON.parse alone; the byte scan that bounds nesting and spots long numbers and prototype
 * keys; and the parse that keeps integers beyond 2^53 exact, which runs only when the scan saw a
 * number of 16+ digits.
 *
 *   npm run bench:json
 */
import { isUtf8 } from 'node:buffer';
import { parseJson, scanJson } from '../libs/contracts/src/json/json-text';
import { fillerText, fmt, machineSpeedMs } from './bench-kit';
import { benchEvent } from './pipeline-kit';

const body = (events: object[]) =>
  Buffer.from(JSON.stringify({ batch: events }).replace(/"bigId":"(\d+)"/g, '"bigId":$1'));
const plain = body(Array.from({ length: 100 }, (_, i) => benchEvent(i, 500)));
const withBigIds = body(
  Array.from({ length: 100 }, (_, i) => ({
    ...benchEvent(i, 500),
    properties: { bigId: String(12345678901234567890n + BigInt(i)), note: fillerText(300, i) },
  })),
);

function microsPerBody(work: () => unknown): number {
  for (let i = 0; i < 2_000; i++) work();
  const runs = 5_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) work();
  return Number(process.hrtime.bigint() - started) / runs / 1000;
}

console.log(
  `machine speed ${fmt(machineSpeedMs())} ms (lower is faster); body of 100 events, ${fmt(plain.length)} bytes`,
);
const parse = microsPerBody(() => JSON.parse(plain.toString('utf8')));
const utf8 = microsPerBody(() => isUtf8(plain));
const scan = microsPerBody(() => scanJson(plain, 64));
const exact = microsPerBody(() => parseJson(withBigIds.toString('utf8'), true));
const exactPlainParse = microsPerBody(() => JSON.parse(withBigIds.toString('utf8')));
console.log(`JSON.parse                      ${fmt(parse, 1)} µs per body`);
console.log(`UTF-8 check                     ${fmt(utf8, 1)} µs per body`);
console.log(
  `nesting/number/key scan         ${fmt(scan, 1)} µs per body (${fmt((scan / parse) * 100)} % of the parse, ${fmt(scan / 100, 2)} µs per event)`,
);
console.log(
  `exact-integer parse, 100 big ids ${fmt(exact, 1)} µs per body, against ${fmt(exactPlainParse, 1)} µs for JSON.parse of the same body (×${fmt(exact / exactPlainParse, 1)})`,
);
