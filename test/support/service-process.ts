import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { TEST_SERVICE_DEFAULTS } from './service-env';

const root = join(__dirname, '..', '..');

export interface ServiceProcessOptions {
  /** Run the build output (`npm run build`) instead of the source through swc: what benchmarks measure. */
  compiled?: boolean;
  /** With `compiled`: the checkout whose build to run, instead of this one (comparing two commits). */
  checkout?: string;
  /** Extra Node flags through NODE_OPTIONS (profiling). */
  nodeOptions?: string;
  /** Node flags on the command line, before the entry: V8 heap flags NODE_OPTIONS does not accept. */
  nodeArgs?: string[];
}

/** Services of this test file still running: stopped if left behind, their output shown when a test fails. */
const running = new Set<ServiceProcess>();
let fileFinished = false;
// A run that fails half-way must not leave services behind, answering the next run's health checks.
process.on('exit', () => running.forEach(({ child }) => child.kill('SIGKILL')));

/**
 * Kills every service this test file started and still runs, and refuses to start more. Runs after
 * the file's own afterAll (test/support/stop-leftovers.ts): a beforeAll that timed out half-way
 * leaves its suite nothing to stop while its start goes on spawning, and those children's pipes
 * kept jest (in band on two cores) from ever exiting after a failed run.
 */
export async function stopLeftoverServices(): Promise<void> {
  fileFinished = true;
  await Promise.all(
    [...running].map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/**
 * What every running service of this file printed last, one block per service: printed after a
 * failed test, because a wait that timed out says only what did not arrive, not which service stalled.
 */
export function liveServiceOutput(lines = 60): string {
  return [...running]
    .map((s) => `--- ${s.name} (${s.url}), last ${lines} lines:\n${s.tail(lines)}`)
    .join('\n');
}

/** A service's own entry (`apps/<name>/src/main.ts`), or `switchyard`, the all-in-one process. */
export type EntryName = 'ingest' | 'router' | 'delivery' | 'console' | 'switchyard';

/** What a process printed, shared by every view of it (ServiceProcess.at). */
interface Output {
  text: string;
}

/** Beyond delivery's 10 s shutdown grace and a Kafka request's timeout: a process this slow to exit is stuck. */
const STOP_REPORTED_AFTER_MS = 40_000;

/**
 * A service run as its own Node process from source (swc on the fly), as in production: needed
 * where jest's module sandbox would defeat the thing under test (OpenTelemetry's instrumentation,
 * SIGTERM and SIGKILL).
 */
export class ServiceProcess {
  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly port: number,
    private readonly output: Output = captured(child),
  ) {}

  static async start(
    name: EntryName,
    port: number,
    env: NodeJS.ProcessEnv,
    options: ServiceProcessOptions = {},
  ): Promise<ServiceProcess> {
    const service = ServiceProcess.launch(name, port, env, options);
    await service.ready();
    return service;
  }

  /**
   * Starts the process without waiting for it to be ready (it may be waiting for Kafka). A service
   * gets `port` as PORT; the all-in-one process takes its ports from `env` (INGEST_PORT, …) and
   * `port` is the listener this handle checks.
   */
  static launch(
    name: EntryName,
    port: number,
    env: NodeJS.ProcessEnv,
    options: ServiceProcessOptions = {},
  ): ServiceProcess {
    if (fileFinished)
      throw new Error(
        `${name} not started: its test file has finished (a set-up that timed out is still running)`,
      );
    const entry = options.compiled
      ? [join(options.checkout ?? root, 'dist', 'apps', name, 'src', 'main.js')]
      : ['-r', '@swc-node/register', join(root, 'apps', name, 'src', 'main.ts')];
    const nodeOptions = [process.env.NODE_OPTIONS, options.nodeOptions].filter(Boolean).join(' ');
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry], {
      cwd: options.checkout ?? root,
      env: {
        ...process.env,
        ...TEST_SERVICE_DEFAULTS,
        ...env,
        ...(name === 'switchyard' ? {} : { PORT: String(port) }),
        NODE_OPTIONS: nodeOptions,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(name, child, port);
    running.add(service);
    child.once('exit', () => running.delete(service));
    return service;
  }

  /** The same process seen at another of its listeners: the all-in-one process serves each service on its own port. */
  at(name: string, port: number): ServiceProcess {
    return new ServiceProcess(name, this.child, port, this.output);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Last lines the process printed: for failure messages. */
  tail(lines = 30): string {
    return this.output.text.split('\n').slice(-lines).join('\n');
  }

  /** Throws, with the process's last lines, if it has exited. */
  private throwIfExited(): void {
    const exit = this.child.exitCode ?? this.child.signalCode;
    if (exit !== null) throw new Error(`${this.name} exited with ${exit}:\n${this.tail()}`);
  }

  async ready(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      this.throwIfExited();
      try {
        if ((await fetch(`${this.url}/health/ready`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.tail()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Sends a signal and resolves with the exit code (or signal name) once the process is gone. A
   * process still there `STOP_REPORTED_AFTER_MS` later has its last lines written to stderr: a
   * suite's clean-up that times out says no more than that, and a CI log is all that is left.
   */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      return this.child.exitCode ?? this.child.signalCode ?? '';
    const exited = new Promise<number | string>((resolve) =>
      this.child.once('exit', (code, sig) => resolve(code ?? sig ?? '')),
    );
    const report = setTimeout(
      () =>
        process.stderr.write(
          `\n${this.name} has not exited ${STOP_REPORTED_AFTER_MS / 1000} s after ${signal}; its last lines:\n${this.tail(80)}\n`,
        ),
      STOP_REPORTED_AFTER_MS,
    );
    this.child.kill(signal);
    return exited.finally(() => clearTimeout(report));
  }
}

function captured(child: ChildProcess): Output {
  const output = { text: '' };
  child.stdout?.on('data', (d: Buffer) => (output.text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output.text += d.toString()));
  return output;
}

/**
 * Ports this process has handed out. The kernel may offer a port again once the probe that found
 * it has closed, so two services started together could otherwise be given the same one.
 */
const handedOut = new Set<number>();

/** A free TCP port on 127.0.0.1 that no earlier call in this process returned. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
}

async function unusedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
