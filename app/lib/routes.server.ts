/**
 * The two shapes a route's loader and action take (DESIGN rule 1, ADR 005): `apiRoute` for /api/* resource
 * routes and `page` for documents. Both carry the route's declared caller type (checked by
 * callers.server.ts at run time and by the route-declaration test before), and `apiRoute` carries each
 * method's contract, from which /api/openapi.json is generated.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { runDeclared, type RouteDeclaration } from "~/lib/callers.server";
import type { CallerType } from "~/lib/context";
import {
  HttpError,
  applyResponseHeaders,
  asHttpError,
  errorResponse,
  noteFailure,
  retryAfterHeaders,
  routePattern,
} from "~/lib/http.server";
import type { DeclaredHandler, Method, MethodContract, RouteContract } from "~/lib/route-contract";

type Args = LoaderFunctionArgs | ActionFunctionArgs;
type Handler = (args: Args) => Promise<Response> | Response;

/** A method's handler, alone or with its contract (summary, input and output schemas). */
export type MethodEntry = Handler | (MethodContract & { handle: Handler });

export interface ApiRouteDefinition extends Partial<Record<Method, MethodEntry>> {
  caller: CallerType;
  /** See `RouteContract.internal`. */
  internal?: boolean;
  /** See `RouteDeclaration.unguarded`. */
  unguarded?: string;
  /**
   * Callable from any web origin (CORS): the token API, whose bearer credential a browser app holds itself (the
   * spec's "frontend applications may send the access_token"). No cookie is read on such a route, so no origin
   * is trusted with anything it did not bring; the preflight (OPTIONS) is answered here.
   */
  cors?: boolean;
}

/** What a browser app may send and read on a `cors` route: the bearer header, and the rate-limit and stream headers. */
const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, WWW-Authenticate, x-vercel-ai-ui-message-stream",
};

const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * The `loader` (and `action`: the same function) of an /api/* resource route, from one handler per method,
 * so every API route answers an unsupported method with 405 + Allow and every thrown error through
 * `errorResponse`. Use as `export const loader = apiRoute({ caller, GET: … }); export const action = loader;`.
 */
export function apiRoute(definition: ApiRouteDefinition): ((args: Args) => Promise<Response>) & DeclaredHandler {
  const { caller, internal, unguarded, cors } = definition;
  const handlers: Partial<Record<Method, Handler>> = {};
  const methods: RouteContract["methods"] = {};
  for (const method of METHODS) {
    const entry = definition[method];
    if (!entry) continue;
    if (typeof entry === "function") {
      handlers[method] = entry;
    } else {
      const { handle, ...contract } = entry;
      handlers[method] = handle;
      methods[method] = contract;
    }
  }
  const allow = Object.keys(handlers).flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m]));
  const declaration: Omit<RouteDeclaration, "guarded"> = { caller, unguarded };

  const dispatch = async (args: Args): Promise<Response> => {
    const { request, params, context } = args;
    context.request.log.route = routePattern(new URL(request.url).pathname, params);
    const method = request.method === "HEAD" ? "GET" : (request.method as Method);
    const handler = handlers[method];
    if (cors && request.method === "OPTIONS") {
      context.request.log.callerType ??= caller;
      return new Response(null, {
        status: 204,
        headers: {
          ...CORS_HEADERS,
          "Access-Control-Allow-Methods": allow.join(", "),
          "Access-Control-Allow-Headers": "Authorization, Content-Type",
          "Access-Control-Max-Age": "600",
        },
      });
    }
    let response: Response;
    try {
      if (!handler) {
        context.request.log.callerType ??= caller;
        throw new HttpError(405, `${request.method} is not supported here`, { allow });
      }
      response = await runDeclared(declaration, args, handler);
    } catch (thrown) {
      response = errorResponse(thrown, context);
    }
    if (cors) for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    return applyResponseHeaders(context, response);
  };
  return Object.assign(dispatch, {
    declaredCaller: caller,
    contract: { caller, internal, methods } satisfies RouteContract,
  });
}

/**
 * A page's loader or action, declared for `caller`. Domain errors become the error boundary's response with
 * their status (a missing record is a 404 page, not a 500; a save refused by a full disk a 503).
 */
export function page<A extends Args, R>(
  caller: CallerType,
  handler: (args: A) => Promise<R> | R,
  options: { unguarded?: string } = {},
): ((args: A) => Promise<R>) & DeclaredHandler {
  const declaration = { caller, ...options };
  const wrapped = async (args: A) => {
    try {
      return await runDeclared(declaration, args, handler as (args: Args) => Promise<R> | R);
    } catch (thrown) {
      const error = thrown instanceof HttpError ? undefined : asHttpError(thrown);
      if (!error) throw thrown;
      noteFailure(args.context, thrown, error.statusCode);
      throw new Response(error.message, { status: error.statusCode, headers: retryAfterHeaders(error) });
    }
  };
  return Object.assign(wrapped, { declaredCaller: caller });
}
