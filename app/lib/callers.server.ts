/**
 * The access contract enforced (ADR 005): every loader and action declares the caller type it serves, and
 * only a guard of that caller type may let a request through.
 *
 * - `apiRoute` and `page` (routes.server.ts) wrap a route's handlers with its declaration. A
 *   declaration that disagrees with the contract's row for the request's path is refused at run time, and a
 *   test walks every route file and checks the same before anything runs (tests/integration/route-declarations).
 * - Guards are made with `defineGuard(caller, fn)`. A guard refuses to run in a route that declared another
 *   caller type, and a route of a caller type that needs a credential answers 500 (logged) if it finished
 *   without any of its guards having run — unless it says why it needs none (`unguarded`: the sign-in page,
 *   the OAuth endpoints that authenticate the client themselves). So a misdeclared or forgotten guard fails
 *   closed, and the coming customer, provider, scheduler and internal guards plug in the same way.
 *
 * The declaration travels in the load context the wrapper hands to the handler (a shallow copy per call), not
 * in the request scope: Remix runs a page's parent and child loaders in parallel with one context, and each
 * must be judged on its own guard.
 */
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { contractFor } from "~/lib/access-contract.server";
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

/**
 * Declarations already checked against the contract. A route file's URL has one fixed prefix, so its row is
 * the same for every path it serves: checking its first request is checking them all, and the hot path skips
 * the table scan.
 */
const agreed = new WeakSet<object>();

/**
 * Runs `handler` under `declaration`: refuses a declaration that disagrees with the access contract for the
 * request's path, and a finished handler of a guarded caller type whose guard never ran.
 */
export async function runDeclared<R>(
  declaration: Omit<RouteDeclaration, "guarded">,
  args: Args,
  handler: (args: Args) => Promise<R> | R,
): Promise<R> {
  if (!agreed.has(declaration)) {
    const { pathname } = new URL(args.request.url);
    const expected = contractFor(pathname).caller;
    if (expected !== declaration.caller) {
      throw new MisdeclaredRoute(
        `${pathname} declares caller ${declaration.caller}; the access contract says ${expected}`,
      );
    }
    agreed.add(declaration);
  }
  const route: RouteDeclaration = { ...declaration, guarded: false };
  args.context.request.log.callerType ??= declaration.caller;
  const result = await handler({ ...args, context: { ...args.context, route } });
  if (!route.guarded && !route.unguarded && !OPEN_CALLERS.has(route.caller)) {
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
