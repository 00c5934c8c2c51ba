import { describe, expect, it } from "vitest";
import type { SiteDomainRegistry } from "~/modules/domains/registry.server";
import { rebaseSiteHref } from "~/modules/sites/navigation.server";
import { routeHost } from "./routing.server";

const SHOP = { hostname: "shop.example.com", workspaceId: "w1", slug: "shop" };

/** The registry as server.ts sees it: one verified primary domain with its redirect switch on. */
const registry: SiteDomainRegistry = {
  siteOfHost: async (hostname) => (hostname === SHOP.hostname ? SHOP : null),
  primaryDomainOf: async (id) => (id === SHOP.workspaceId ? SHOP.hostname : null),
  pathRedirectOf: async (slug) =>
    slug === SHOP.slug ? { workspaceId: SHOP.workspaceId, domain: SHOP.hostname } : null,
  invalidate: () => {},
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
