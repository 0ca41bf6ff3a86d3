/**
 * A webhook receiver for trying Switchyard by hand: prints every request it gets and checks its
 * X-Signature against DEMO_SHARED_SECRET (recomputed over the raw body). Answers 200.
 * Listens on 127.0.0.1:${DEMO_RECEIVER_PORT:-9000}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.DEMO_RECEIVER_PORT ?? 9000);
const secret = process.env.DEMO_SHARED_SECRET;

function signatureVerdict(raw: Buffer, signature: string | undefined): string {
  if (!secret) return signature ? 'signed (no DEMO_SHARED_SECRET to check it)' : 'unsigned';
  if (!signature) return 'MISSING signature';
  const expected = Buffer.from(createHmac('sha1', secret).update(raw).digest('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? 'signature OK'
    : 'signature MISMATCH';
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const signature = req.headers['x-signature'] as string | undefined;
    const shown = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    );
    let body: unknown = raw.toString('utf8');
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      // shown as text
    }
    process.stdout.write(
      `\n[demo-receiver] ${new Date().toISOString()} ${req.method} ${req.url} — ${signatureVerdict(raw, signature)}\n` +
        `  headers: ${JSON.stringify(shown)}\n  body: ${JSON.stringify(body)}\n`,
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
}).listen(port, '127.0.0.1', () =>
  process.stdout.write(`[demo-receiver] listening on http://127.0.0.1:${port}\n`),
);
