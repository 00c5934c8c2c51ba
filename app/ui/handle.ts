/** `handle` of a route module. Public site routes set `hydrate: false`: they ship no JavaScript. */
export interface RouteHandle {
  hydrate?: boolean;
  /**
   * A page that does not hydrate but loads a fingerprinted script of its own (an asset imported with
   * `?url&no-inline`, the booking picker's): its CSP allows `script-src 'self'` with no nonce, so the page
   * stays byte-identical for every visitor (cacheable), and still runs no inline script.
   */
  ownScript?: boolean;
}

export function hydrates(handles: unknown[]): boolean {
  return !handles.some((h) => (h as RouteHandle | undefined)?.hydrate === false);
}

/** Whether a page that does not hydrate declared a script file of its own (see `RouteHandle.ownScript`). */
export function loadsOwnScript(handles: unknown[]): boolean {
  return handles.some((h) => (h as RouteHandle | undefined)?.ownScript === true);
}

/**
 * Pages that load a script file of their own only when their data says so (the site assistant's widget, on the
 * sites that switched it on): the loader marks the request, and entry.server.tsx allows `script-src 'self'` for
 * it alone. Every other public page keeps `script-src 'none'`. Keyed by the request's scope.
 */
const ownScriptAnswers = new WeakSet<object>();
export const markOwnScript = (scope: object): void => void ownScriptAnswers.add(scope);
export const marksOwnScript = (scope: object): boolean => ownScriptAnswers.has(scope);
