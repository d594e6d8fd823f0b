// Shared pieces of the benchmarks: child processes that announce their URL, and load runs.
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface Child {
  proc: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/** Starts `node args…` and waits for the first stdout line matching http://…, within 20 s. */
export async function startChild(args: string[], env: Record<string, string> = {}, urlPattern = /(http:\/\/127\.0\.0\.1:\d+)/): Promise<Child> {
  const proc = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start in 20 s`)), 20_000);
    let buf = '';
    proc.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = urlPattern.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  }).catch((err: unknown) => {
    proc.kill('SIGKILL');
    throw err;
  });
  proc.stdout.resume();
  return {
    proc,
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
        setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
      }),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** A fixed-duration load run; autocannon stops by itself when the duration is over. */
export async function load(opts: { url: string; connections: number; durationS: number; headers?: Record<string, string>; bodies: string[] }): Promise<LoadResult> {
  let i = 0;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationS,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: opts.bodies[i++ % opts.bodies.length] }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}
