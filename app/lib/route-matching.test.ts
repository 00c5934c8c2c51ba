/**
 * Pins what the patches in patches/ do to the server's route matching (ADR 020 and ADR 028): the work is done
 * once per routes array, and what a caller gets back is still its own. The server loads the CommonJS builds of
 * these packages, so the test does too.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
type Route = { id?: string; path?: string; index?: boolean; children?: Route[] };
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: Route };
const { matchRoutes } = require("@remix-run/router") as {
  matchRoutes(routes: Route[], location: string): Match[] | null;
};
const { createStaticRouter } = require("react-router-dom/server") as {
  createStaticRouter(
    routes: Route[],
    context: { matches: Match[]; location: unknown; loaderData: object },
  ): { routes: Route[]; state: { matches: Match[] } };
};

const { createEntryRouteModules } = require("@remix-run/server-runtime/dist/entry.js") as {
  createEntryRouteModules(manifest: Record<string, { module: object }>): Record<string, object>;
};

const table = (): Route[] => [
  {
    id: "root",
    path: "/",
    children: [
      { id: "home", index: true },
      { id: "api-live", path: "api/health/live" },
      { id: "site", path: ":site", children: [{ id: "site-page", path: "*" }] },
    ],
  },
];

describe("matchRoutes (patched: matches cached per routes array and pathname)", () => {
  it("answers a repeated pathname as the first time, with the same params shared by every match", () => {
    const routes = table();
    const first = matchRoutes(routes, "/harbor-bakery/menu/bread");
    const second = matchRoutes(routes, "/harbor-bakery/menu/bread");
    expect(second).toEqual(first);
    expect(second?.map((m) => m.route.id)).toEqual(["root", "site", "site-page"]);
    expect(second?.[0]?.params).toEqual({ site: "harbor-bakery", "*": "menu/bread" });
    expect(new Set(second?.map((m) => m.params)).size).toBe(1);
    // The same route objects: a match still leads to the route the table holds.
    expect(second?.[1]?.route).toBe(routes[0]?.children?.[2]);
  });

  it("hands out copies: what one caller changes, the next one does not see", () => {
    const routes = table();
    const first = matchRoutes(routes, "/acme/shop")!;
    first[0]!.params.site = "changed";
    first[0]!.pathname = "/changed";
    const second = matchRoutes(routes, "/acme/shop")!;
    expect(second[0]?.params.site).toBe("acme");
    expect(second[0]?.pathname).toBe("/");
    expect(second).not.toBe(first);
  });

  it("caches misses as misses, and keeps each routes array apart", () => {
    const onlyApi: Route[] = [{ id: "api", path: "/api/health/live" }];
    expect(matchRoutes(onlyApi, "/acme")).toBeNull();
    expect(matchRoutes(onlyApi, "/acme")).toBeNull();
    expect(matchRoutes(table(), "/acme")?.map((m) => m.route.id)).toEqual(["root", "site"]);
    expect(matchRoutes(table(), "/api/health/live")?.map((m) => m.route.id)).toEqual(["root", "api-live"]);
  });

  it("still matches each pathname on its own once the cache has seen many", () => {
    const routes = table();
    for (let n = 0; n < 1_500; n += 1) {
      expect(matchRoutes(routes, `/site-${n}`)?.[1]?.params.site).toBe(`site-${n}`);
    }
    expect(matchRoutes(routes, "/site-3")?.[1]?.params.site).toBe("site-3");
  });
});

describe("createStaticRouter (patched: data routes converted once per routes array)", () => {
  const context = (routes: Route[]) => ({
    matches: matchRoutes(routes, "/acme")!,
    location: { pathname: "/acme", search: "", hash: "", state: null, key: "default" },
    loaderData: {},
  });

  it("gives every render of one routes array the same data routes, with matches on them", () => {
    const routes = table();
    const first = createStaticRouter(routes, context(routes));
    const second = createStaticRouter(routes, context(routes));
    expect(second.routes).toBe(first.routes);
    expect(second.state.matches.map((m) => m.route.id)).toEqual(["root", "site"]);
    expect(second.state.matches[1]?.route).toBe(first.routes[0]?.children?.[2]);
  });

  it("converts another routes array anew", () => {
    const one = table();
    const other = table();
    expect(createStaticRouter(other, context(other)).routes).not.toBe(createStaticRouter(one, context(one)).routes);
  });
});

describe("createEntryRouteModules (patched: one route-modules object per build's routes)", () => {
  it("hands every render of one build the same object, so RemixServer's routes are made once", () => {
    const root = { default: () => null };
    const page = { default: () => null };
    const build = { root: { module: root }, "routes/page": { module: page } };
    const first = createEntryRouteModules(build);
    expect(first).toEqual({ root, "routes/page": page });
    expect(createEntryRouteModules(build)).toBe(first);
    expect(createEntryRouteModules({ root: { module: root } })).not.toBe(first);
  });
});
