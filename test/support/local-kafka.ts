import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'kafka', 'kafka.sh');
const run = promisify(execFile);

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A base port whose `offsets` above it are all free, so a suite's brokers collide with no one's;
 * below Linux's ephemeral range (32768+), where outgoing connections could take one meanwhile.
 */
async function freePorts(offsets: number[]): Promise<number> {
  for (;;) {
    const base = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(offsets.map((o) => portFree(base + o)));
    if (free.every(Boolean)) return base;
  }
}

/**
 * Brokers of scripts/kafka/kafka.sh's `cluster` or `secure` mode in a temporary work dir on free
 * ports, for suites that kill brokers or need TLS and SASL: the shared test broker is never
 * touched. `stop` stops them and deletes their data; a suite calls it in afterAll.
 */
export class LocalKafka {
  private constructor(
    private readonly mode: 'cluster' | 'secure',
    private readonly env: NodeJS.ProcessEnv,
    readonly dir: string,
    readonly brokers: string,
  ) {}

  /** `size` KRaft nodes; topics replicate min(3, size) times with min.insync.replicas min(2, size). */
  static async cluster(size: number): Promise<LocalKafka> {
    const kafka = await LocalKafka.unstartedCluster(size);
    await kafka.restart();
    return kafka;
  }

  /** The same cluster with its ports and directory chosen, not started yet: `restart()` starts it. */
  static async unstartedCluster(size: number): Promise<LocalKafka> {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-kafka-cluster-'));
    const base = await freePorts(Array.from({ length: size }, (_, i) => [i, 100 + i]).flat());
    const brokers = Array.from({ length: size }, (_, i) => `127.0.0.1:${base + i}`).join(',');
    return new LocalKafka(
      'cluster',
      { KAFKA_CLUSTER_SIZE: String(size), KAFKA_CLUSTER_PORT: String(base), KAFKA_CLUSTER_DIR: dir },
      dir,
      brokers,
    );
  }

  /**
   * One broker whose listener `brokers` is SASL_SSL (CA `tls.ca`, SCRAM user `user` / `password`),
   * and whose listener `mtlsBrokers` wants a client certificate (`tls.cert`, `tls.key`).
   */
  static async secure(
    user = 'switchyard',
    password = 'switchyard-secret',
  ): Promise<LocalKafka & { mtlsBrokers: string; tls: { ca: string; cert: string; key: string } }> {
    const dir = mkdtempSync(join(tmpdir(), 'switchyard-kafka-secure-'));
    const base = await freePorts([0, 1, 2]);
    const env = {
      KAFKA_SECURE_PORT: String(base),
      KAFKA_SECURE_DIR: dir,
      KAFKA_SECURE_USER: user,
      KAFKA_SECURE_PASSWORD: password,
    };
    const tls = {
      ca: join(dir, 'tls', 'ca.pem'),
      cert: join(dir, 'tls', 'client.pem'),
      key: join(dir, 'tls', 'client.key'),
    };
    const kafka = Object.assign(new LocalKafka('secure', env, dir, `127.0.0.1:${base}`), {
      mtlsBrokers: `127.0.0.1:${base + 2}`,
      tls,
    });
    await kafka.script('start');
    return kafka;
  }

  /** SIGKILLs node `node` (1-based) of a cluster: a crash, no controlled shutdown. */
  kill(node: number): Promise<void> {
    return this.script('kill', String(node));
  }

  /** Starts the nodes that are down and resolves once every node is ready. */
  restart(): Promise<void> {
    return this.script('start');
  }

  /**
   * Stops the brokers and deletes their data. A cluster's nodes are SIGKILLed: its data is thrown
   * away, and a controlled shutdown on a loaded machine can take the script's whole 30 s bound.
   */
  async stop(): Promise<void> {
    if (this.mode === 'cluster') {
      const nodes = this.brokers.split(',').map((_, i) => i + 1);
      await Promise.all(nodes.map((node) => this.kill(node)));
    }
    await this.script('stop');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async script(...args: string[]): Promise<void> {
    try {
      await run('bash', [SCRIPT, this.mode, ...args], {
        env: { ...process.env, ...this.env },
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`kafka.sh ${this.mode} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
    }
  }
}
