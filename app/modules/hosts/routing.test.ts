import { describe, expect, it } from "vitest";
import type { SiteDomainRegistry } from "~/modules/domains/registry.server";
import { rebaseSiteHref } from "~/modules/sites/navigation.server";
import { DEV_SERVER_PATHS, routeHost, sameHostLocation, unsafeSitePath } from "./routing.server";

const SHOP = { hostname: "shop.example.com", workspaceId: "w1", slug: "shop" };
/** Another verified domain of the same site, not its primary. */
const WWW = { ...SHOP, hostname: "www.shop.example.com" };

/** The registry as server.ts sees it: one verified primary domain with its redirect switch on. */
const registry: SiteDomainRegistry = {
  siteOfHost: async (hostname) => (hostname === SHOP.hostname ? SHOP : hostname === WWW.hostname ? WWW : null),
  primaryDomainOf: async (id) => (id === SHOP.workspaceId ? SHOP.hostname : null),
  pathRedirectOf: async (slug) =>
    slug === SHOP.slug ? { workspaceId: SHOP.workspaceId, domain: SHOP.hostname } : null,
  aliasRedirectOf: async (hostname) => (hostname === WWW.hostname ? SHOP.hostname : null),
  invalidate: () => {},
  servesNow: (hostname) => hostname === SHOP.hostname || hostname === WWW.hostname,
};

describe("routeHost on a custom domain", () => {
  it.each([
    ["/", "/shop"],
    ["/?utm_source=flyer", "/shop?utm_source=flyer"],
    ["/about", "/shop/about"],
    ["/login", "/shop/login"],
    ["/api/editor/pages", "/shop/api/editor/pages"],
    ["/robots.txt", "/shop/robots.txt"],
    ["/shopping", "/shop/shopping"],
    ["/favicon.ico", "/shop/favicon.ico"],
  ])("rewrites %s to %s", async (url, rewritten) => {
    expect(await routeHost(registry, "SHOP.example.com:443", url)).toEqual({
      kind: "custom-domain",
      site: SHOP,
      url: rewritten,
      redirect: null,
    });
  });

  it.each(["/assets/entry-abc.js", "/api/v1/contact?site=x", "/api/health", "/api/health/live", "/api/routing-test"])(
    "leaves the deployment's own %s as it is",
    async (url) => expect(await routeHost(registry, SHOP.hostname, url)).toMatchObject({ url, redirect: null }),
  );

  it.each([
    ["/shop", "/"],
    ["/shop/", "/"],
    ["/shop/about?x=1", "/about?x=1"],
  ])("answers %s with 301 to %s", async (url, location) => {
    expect((await routeHost(registry, SHOP.hostname, url)).redirect).toBe(location);
  });
});

describe("routeHost: paths that would leave the site (security M1, L1)", () => {
  it.each([
    ["/shop//evil.example/x", "/evil.example/x"],
    ["/shop///evil.example", "/evil.example"],
    ["/shop//evil.example/x?y=1", "/evil.example/x?y=1"],
  ])("answers %s with a redirect on this host, %s, never a protocol-relative URL", async (url, location) => {
    expect((await routeHost(registry, SHOP.hostname, url)).redirect).toBe(location);
  });

  it.each([
    ["//evil.example", "/evil.example"],
    ["/\\evil.example", "/evil.example"],
    ["\\/\\evil.example/x?y", "/evil.example/x?y"],
    ["/about", "/about"],
    ["/", "/"],
  ])("sameHostLocation(%j) is %j", (path, location) => expect(sameHostLocation(path)).toBe(location));

  it.each([
    "/../login",
    "/%2e%2e/login",
    "/%2E%2e/api/editor/pages",
    "/.%2e/other-shop",
    "/about/../../login",
    "/./about",
    "/..;/login",
    "/%2e%2e;x/login",
    "/a%2fb",
    "/a%2F..%2Flogin",
    "/a%5c..",
    "/shop/\\evil.example",
    "/..\\login",
  ])("refuses %s on a custom domain before the rewrite", async (path) => {
    expect(unsafeSitePath(path), path).not.toBeNull();
    const route = await routeHost(registry, SHOP.hostname, path);
    expect(route.refused, path).toBeTruthy();
  });

  it.each(["/", "/about", "/a..b", "/.well-known/security.txt", "/%2e%2ex", "/media/abc.png", "/caf%C3%A9"])(
    "lets %s through",
    (path) => expect(unsafeSitePath(path)).toBeNull(),
  );

  it("leaves dot segments on the deployment's host to the URL parser (no tenant to leave there)", async () => {
    expect((await routeHost(registry, "atrium.example", "/%2e%2e/login")).refused).toBeUndefined();
  });
});

describe("routeHost on an alias domain (maintainer #13)", () => {
  it.each([
    ["/", "https://shop.example.com/"],
    ["/about?x=1", "https://shop.example.com/about?x=1"],
    ["/shop/about", "https://shop.example.com/about"],
    ["//evil.example", "https://shop.example.com/evil.example"],
  ])("answers %s with 301 to %s on the primary domain", async (url, location) => {
    expect((await routeHost(registry, WWW.hostname, url)).redirect).toBe(location);
  });

  it("keeps the deployment's own paths (the customer API) on the alias", async () => {
    expect((await routeHost(registry, WWW.hostname, "/api/v1/contact")).redirect).toBeNull();
  });

  it("serves the primary itself", async () => {
    expect((await routeHost(registry, SHOP.hostname, "/about")).redirect).toBeNull();
  });
});

describe("routeHost under npm run dev (maintainer #13)", () => {
  const vitePaths = [
    "/@vite/client",
    "/@fs/srv/atrium/node_modules/x.js",
    "/@id/__x00__virtual:remix/inject-hmr-runtime",
    "/@react-refresh",
    "/__vite_ping",
    "/node_modules/.vite/deps/react.js?v=1",
    "/app/styles/site.css?direct",
  ];

  it.each(vitePaths)("leaves Vite's %s to the dev server", async (url) => {
    const route = await routeHost(registry, SHOP.hostname, url, { dev: true });
    expect(route).toEqual({ kind: "custom-domain", site: SHOP, url, redirect: null });
  });

  it.each(vitePaths)("rewrites %s into the site in production", async (url) => {
    expect((await routeHost(registry, SHOP.hostname, url)).url).toBe(`/shop${url}`);
  });

  it("is a short list of prefixes", () => {
    expect(DEV_SERVER_PATHS.every((prefix) => prefix.startsWith("/"))).toBe(true);
  });
});

describe("routeHost on the deployment's host", () => {
  it("redirects the site's pages to its domain, not its files, not other paths", async () => {
    const at = (url: string) => routeHost(registry, "atrium.example:3000", url);
    expect((await at("/shop/about?x=1")).redirect).toBe("https://shop.example.com/about?x=1");
    expect((await at("/shop")).redirect).toBe("https://shop.example.com/");
    expect((await at("/shop/robots.txt")).redirect).toBe("https://shop.example.com/robots.txt");
    for (const url of ["/shop/media/abc.png", "/shop/theme.css?v=1", "/shopping", "/other/about", "/login", "/"])
      expect(await at(url), url).toEqual({ kind: "deployment", site: null, url, redirect: null });
  });
});

describe("rebaseSiteHref", () => {
  it.each([
    ["/shop", "", "/"],
    ["/shop/menu", "", "/menu"],
    ["/shop?x=1", "", "/?x=1"],
    ["/shop#hours", "/shop", "/shop#hours"],
    ["/shop/menu", "/shop", "/shop/menu"],
    ["/shopping", "", "/shopping"],
    ["https://elsewhere.example/shop", "", "https://elsewhere.example/shop"],
  ])("%s under base %j is %s", (href, base, expected) => {
    expect(rebaseSiteHref(href, "shop", base as "" | "/shop")).toBe(expected);
  });
});
