// Which routes need which credential, collected as they are registered: the test that runs the
// common checks on every authenticated route (401, 403, 404 for another account's id) reads it,
// so a new route cannot be left out of them.
import type { FastifyInstance } from 'fastify';

export type RouteAuth = 'api-key' | 'session';

export interface InventoryRoute {
  auth: RouteAuth;
  method: string;
  /** the full path, with the router's `:param` placeholders */
  url: string;
}

export class RouteInventory {
  readonly #routes: InventoryRoute[] = [];

  /** Records every route registered from now on in `scope` (and the scopes inside it). */
  watch(scope: FastifyInstance, auth: RouteAuth): void {
    scope.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        // HEAD is Fastify's automatic twin of each GET
        if (method !== 'HEAD') this.#routes.push({ auth, method, url: route.url });
      }
    });
  }

  list(): readonly InventoryRoute[] {
    return this.#routes;
  }
}
