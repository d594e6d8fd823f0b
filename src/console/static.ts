// The console's pages: index.html (never cached: it names the current bundle) and the hashed
// bundle files (cached for a year: a new build has new names). Built by scripts/build-console.ts
// into web/dist at npm install/ci (the `prepare` script) or with `npm run build:console`.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors.ts';

export const DEFAULT_WEB_DIR = path.resolve(import.meta.dirname, '../../web/dist');

export function consoleStatic(webDir: string): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const indexFile = path.join(webDir, 'index.html');
    const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
    if (!index) app.log.warn({ webDir }, 'the console is not built: run `npm run build:console`');
    else {
      await app.register(fastifyStatic, {
        root: path.join(webDir, 'assets'),
        prefix: '/assets/',
        // every file name carries a hash of its content
        immutable: true,
        maxAge: '365d',
        index: false,
        dotfiles: 'deny',
        decorateReply: false,
      });
    }
    const page = async (_request: unknown, reply: FastifyReply) => {
      if (!index) throw new AppError('not_ready', 'the console is not built on this server: run `npm run build:console`');
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index);
    };
    app.get('/', page);
    // the console's own routes (/console/keys, /console/bulk…) are drawn by the page itself
    app.get('/*', async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      if (rest.startsWith('api/') || rest.startsWith('assets/') || rest === 'api' || rest === 'assets') {
        throw new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
      }
      return page(request, reply);
    });
  };
}
