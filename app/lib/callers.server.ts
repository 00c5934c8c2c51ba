/**
 * The access contract enforced (ADR 005): every loader and action declares the caller type it serves, and
 * only a guard of that caller type may let a request through.
 *
 * - `apiRoute` and `page` (routes.server.ts) wrap a route's handlers with its declaration, and a test walks
 *   every route file and checks each declaration against the contract's row for the file's URL
 *   (app/lib/access-contract.test.ts). Not at run time: a dynamic route such as `/{site}` also receives paths
 *   another row owns (`/shop` before the shop exists), which it must answer with its own 404.
 * - Guards are made with `defineGuard(caller, fn)`. A guard refuses to run in a route that declared another
 *   caller type. A route of a caller type that needs a credential cannot read its input (`readJson`,
 *   `runForm`) before one of its guards let the request through, and answers 500 (logged) instead of its
 *   response if it finished without one — unless it says why it needs none (`unguarded`: the sign-in page,
 *   the OAuth endpoints that authenticate the client themselves). So a misdeclared or forgotten guard fails
 *   closed, and the coming customer, provider, scheduler and internal guards plug in the same way.
 *
 * The declaration travels in the load context the wrapper hands to the handler (a shallow copy per call), not
 * in the request scope: Remix runs a page's parent and child loaders in parallel with one context, and each
 * must be judged on its own guard.
 */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { CallerType } from "~/lib/context";

export interface RouteDeclaration {
  caller: CallerType;
  /** Why this handler needs no credential of its caller type (it is where the caller obtains one, …). */
  unguarded?: string;
  /** Set by a guard of the declared caller type once it let the request through. */
  guarded: boolean;
}

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The declaration of the loader or action now running (set by `apiRoute` and `page`). */
    route?: RouteDeclaration;
  }
}

/** Callers that present no credential: nothing to guard. */
const OPEN_CALLERS: ReadonlySet<CallerType> = new Set(["public"]);

/** A route whose declaration and code disagree: a programming error, answered 500 and logged, never let through. */
export class MisdeclaredRoute extends Error {
  override name = "MisdeclaredRoute";
}

type Args = LoaderFunctionArgs | ActionFunctionArgs;

const needsGuard = (route: RouteDeclaration) => !route.guarded && !route.unguarded && !OPEN_CALLERS.has(route.caller);

/**
 * Refuses to read a request's input before its route's guard let it through: a route that forgot its guard
 * fails before it can act on what it was sent, not only after. (No declaration: a helper's own use.)
 */
export function assertGuarded(context: AppLoadContext): void {
  const route = context.route;
  if (route && needsGuard(route)) {
    throw new MisdeclaredRoute(`a ${route.caller} route read its input before running a ${route.caller} guard`);
  }
}

/** Runs `handler` under `declaration`: refuses a finished handler of a guarded caller type whose guard never ran. */
export async function runDeclared<R>(
  declaration: Omit<RouteDeclaration, "guarded">,
  args: Args,
  handler: (args: Args) => Promise<R> | R,
): Promise<R> {
  const route: RouteDeclaration = { ...declaration, guarded: false };
  args.context.request.log.callerType ??= declaration.caller;
  const result = await handler({ ...args, context: { ...args.context, route } });
  if (needsGuard(route)) {
    throw new MisdeclaredRoute(
      `${args.request.url} (caller ${route.caller}) finished without running a ${route.caller} guard`,
    );
  }
  return result;
}

/**
 * A guard for one caller type: `(request, context, …options) => the caller`. It runs only inside a route that
 * declared that caller type, and marks the route as guarded once it let the request through.
 */
export function defineGuard<A extends unknown[], R>(
  caller: CallerType,
  guard: (request: Request, context: AppLoadContext, ...rest: A) => Promise<R>,
): (request: Request, context: AppLoadContext, ...rest: A) => Promise<R> {
  return async (request, context, ...rest) => {
    const route = context.route;
    if (!route) throw new MisdeclaredRoute(`the ${caller} guard ran outside a declared route`);
    if (route.caller !== caller) {
      throw new MisdeclaredRoute(`a route declared for ${route.caller} callers ran the ${caller} guard`);
    }
    context.request.log.callerType = caller;
    const result = await guard(request, context, ...rest);
    route.guarded = true;
    return result;
  };
}
