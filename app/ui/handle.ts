/** `handle` of a route module. Public site routes set `hydrate: false`: they ship no JavaScript. */
export interface RouteHandle {
  hydrate?: boolean;
}

export function hydrates(handles: unknown[]): boolean {
  return !handles.some((h) => (h as RouteHandle | undefined)?.hydrate === false);
}
