// A console client as a browser is one: it keeps the session cookie, sends its origin, and sends
// the CSRF token the session handed out, unless a test says otherwise.
import type { Call } from './server.ts';

export const PASSWORD = 'correct horse battery staple';

export class ConsoleClient {
  readonly base: string;
  cookie: string | null = null;
  csrf: string | null = null;
  setCookies: string[] = [];

  constructor(base: string) {
    this.base = base;
  }

  get sessionId(): string | null {
    return this.cookie?.split('=')[1] ?? null;
  }

  async request(
    method: string,
    path: string,
    opts: { body?: unknown; form?: FormData; headers?: Record<string, string>; csrf?: string | null; origin?: string | null; query?: string } = {},
  ): Promise<Call> {
    const headers: Record<string, string> = {};
    const origin = opts.origin === undefined ? this.base : opts.origin;
    if (origin !== null && method !== 'GET') headers.origin = origin;
    const csrf = opts.csrf === undefined ? this.csrf : opts.csrf;
    if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    if (this.cookie) headers.cookie = this.cookie;
    let body: FormData | string | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    Object.assign(headers, opts.headers);
    const res = await fetch(`${this.base}/console/api${path}${opts.query ?? ''}`, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    this.setCookies = res.headers.getSetCookie();
    for (const c of this.setCookies) {
      const [pair] = c.split(';');
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) this.cookie = null;
      else if (pair) this.cookie = pair;
    }
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    if (parsed && typeof parsed === 'object' && typeof parsed.csrf_token === 'string') this.csrf = parsed.csrf_token;
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** Signs up and, as the console does once sign-up is accepted, signs in with the password. */
  async signUp(email: string, password = PASSWORD): Promise<Call> {
    const res = await this.request('POST', '/signup', { body: { email, password } });
    return res.status === 202 ? this.signIn(email, password) : res;
  }

  signIn(email: string, password = PASSWORD): Promise<Call> {
    return this.request('POST', '/session', { body: { email, password } });
  }
}
