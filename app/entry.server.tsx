/**
 * Renders documents. Console documents get a CSP with this request's nonce; public site documents ship no
 * script at all, so their CSP has no nonce and the HTML is identical for every visitor (cacheable).
 * Also the app's half of the server interface: `bootstrap` and `runCli` are reached by server.ts and the
 * CLI launcher through the server build.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { contractFor } from "~/lib/access-contract.server";
import { failureCategory } from "~/lib/http.server";
import { dataRequestGate, isPrivateSiteAnswer } from "~/modules/site-access/gate.server";
import { isHiddenFromSearchEngines } from "~/modules/sites/chrome.server";
import { isCacheableAnswer, stripCacheHeaders } from "~/modules/sites/page-cache";
import { hydrates, loadsOwnScript, marksOwnScript } from "~/ui/handle";
import { NonceContext } from "~/ui/nonce";

export { bootstrap } from "./bootstrap.server";
export { runCli } from "./cli.server";

export const streamTimeout = 5_000;

const COMMON_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'self'",
  "img-src 'self' data:",
];

/**
 * `interactive`: a hydrating document (the console), its scripts allowed by this request's nonce. Otherwise a
 * public page: no script at all, or (`ownScript`) only script files from this origin (a fingerprinted asset
 * such as the booking picker's), never inline: no nonce, so the page stays the same for every visitor.
 */
function contentSecurityPolicy(
  interactive: boolean,
  nonce: string,
  development: boolean,
  formActionSources: string[] = [],
  ownScript = false,
): string {
  const common = formActionSources.length
    ? COMMON_CSP.map((d) => (d === "form-action 'self'" ? `form-action 'self' ${formActionSources.join(" ")}` : d))
    : COMMON_CSP;
  if (!interactive) {
    const scripts = ownScript ? "script-src 'self'" : "script-src 'none'";
    return [...common, scripts, "style-src 'self'", "frame-ancestors 'self'"].join("; ");
  }
  return [
    ...common,
    `script-src 'self' 'nonce-${nonce}'`,
    // Vite's dev server injects styles and talks to its HMR socket; production needs neither.
    development ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    development ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const matches = remixContext.staticHandlerContext.matches;
  const handles = matches.map((m) => remixContext.routeModules[m.route.id]?.handle);
  const interactive = hydrates(handles);
  const nonce = interactive ? loadContext.request.nonce : "";
  // A document without <Scripts> never sends its loader data to the browser: leave it unencoded (the
  // server-runtime patch makes the encoding wait for this read; see patches/).
  if (!interactive)
    Object.defineProperty(remixContext, "serverHandoffStream", {
      value: undefined,
      configurable: true,
      writable: true,
    });
  const log = loadContext.request.log;
  log.callerType ??= contractFor(new URL(request.url).pathname).caller;
  log.route ??=
    "/" +
    matches
      .map((m) => m.route.path)
      .filter(Boolean)
      .join("/");
  log.failure ??= failureCategory(responseStatusCode);

  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  responseHeaders.set(
    "Content-Security-Policy",
    contentSecurityPolicy(
      interactive,
      nonce,
      loadContext.services.devServer,
      loadContext.request.formActionSources,
      loadsOwnScript(handles) || marksOwnScript(loadContext.request),
    ),
  );
  // A protected site's page (ADR 023) is for the visitor who unlocked it only, whatever its route said.
  if (isPrivateSiteAnswer(loadContext)) stripCacheHeaders(responseHeaders, "private, no-store");
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
  // Only a 200 is shared (ADR 026): an error page (a 404 inside a site's frame, a 503) carries no tags, whatever
  // the layout declared for the page it did not become.
  else if (responseStatusCode !== 200 && isCacheableAnswer(responseHeaders))
    stripCacheHeaders(responseHeaders, "no-store");
  // A site hidden from search engines (ADR 021): every page of it, whatever its route's head says.
  if (isHiddenFromSearchEngines(loadContext)) responseHeaders.set("X-Robots-Tag", "noindex");

  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={streamTimeout} nonce={nonce || undefined} />
      </NonceContext.Provider>,
      {
        nonce: nonce || undefined,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.request.logger.error({ err: error }, "error while streaming a document");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1_000);
  });
}

/**
 * Data requests (`/{site}/about.data`): a protected site's gate again, as such a request may leave the `$site`
 * layout's loader out (ADR 023). Public pages do not hydrate, so no browser of ours makes one; a script could.
 */
export async function handleDataRequest(
  response: Response,
  {
    request,
    context,
    params,
  }: { request: Request; context: AppLoadContext; params: Record<string, string | undefined> },
): Promise<Response> {
  if (!params.site) return response;
  const locked = await dataRequestGate(context, request, params.site);
  if (locked) return locked;
  if (isPrivateSiteAnswer(context)) stripCacheHeaders(response.headers, "private, no-store");
  return response;
}

export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }) {
  if (request.signal.aborted) return;
  context.request.logger.error({ err: error }, "unhandled error while handling a request");
}
