// Demo webhook receiver for docker/compose.yaml: plain JavaScript (Node built-ins only) so it runs
// on the stock Node 24 image without the dev dependencies that scripts/demo-receiver.ts needs.
// Same behaviour as scripts/demo-receiver.ts: prints every request and checks X-Signature
// (HMAC-SHA1 of the raw body, hex) against DEMO_SHARED_SECRET; answers 200.
// Listens on ${DEMO_RECEIVER_HOST:-0.0.0.0}:${DEMO_RECEIVER_PORT:-9000}; GET /healthz answers 200.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.env.DEMO_RECEIVER_PORT ?? 9000);
const host = process.env.DEMO_RECEIVER_HOST ?? '0.0.0.0';
const secret = process.env.DEMO_SHARED_SECRET;

function signatureVerdict(raw, signature) {
  if (!secret) return signature ? 'signed (no DEMO_SHARED_SECRET to check it)' : 'unsigned';
  if (!signature) return 'MISSING signature';
  const expected = Buffer.from(createHmac('sha1', secret).update(raw).digest('hex'));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? 'signature OK' : 'signature MISMATCH';
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const signature = req.headers['x-signature'];
    const shown = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)));
    let body = raw.toString('utf8');
    try {
      body = JSON.parse(body);
    } catch {
      // shown as text
    }
    process.stdout.write(
      `\n[demo-receiver] ${new Date().toISOString()} ${req.method} ${req.url} — ${signatureVerdict(raw, signature)}\n` +
        `  headers: ${JSON.stringify(shown)}\n  body: ${JSON.stringify(body)}\n`,
    );
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
server.listen(port, host, () => process.stdout.write(`[demo-receiver] listening on http://${host}:${port}\n`));
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
