/**
 * Issue 14's review of custom domains (security M1, M2, L1; maintainer #1, #4, #6, #13), through raw HTTP with
 * the Host header of the test's choosing (fetch would normalise the paths these tests are about):
 * - no redirect on a customer's domain ever names another host (`/{slug}//evil.example`, the unlock page's
 *   `next`, a stale list of domains after a slug change);
 * - a path that would leave the site once rewritten (dot segments, encoded slashes) is refused with 400;
 * - one site's unlock cookie does not open another site on its domain;
 * - a former address answers the same way on pages and technical files, on both hosts;
 * - an alias domain answers 301 to the primary one;
 * - HSTS covers subdomains of the deployment's own hosts only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isoNow } from "~/lib/clock.server";
import { createUser } from "~/modules/accounts/users.server";
import { createWorkspace as createWorkspaceRow } from "~/modules/tenancy/workspaces.server";
import { purgeTags } from "~/modules/cache/purge.server";
import { cacheTags } from "~/modules/cache/tags";
import { PASSWORD, createWorkspace, signUp, uniqueEmail, type Client } from "../helpers/client";
import { insertVerifiedDomain } from "../helpers/domains";
import { raw } from "../helpers/raw-request";
import { startServer, type TestServer } from "../helpers/server";

const DEPLOYMENT = "https://atrium.example.test";
const SITE_PASSWORD = "open sesame 42";
const COOKIE = "atrium_site_unlock";
const run = Math.random().toString(36).slice(2, 7);

/** A verified domain row whose `/{slug}/*` paths redirect to the domain (the hardening tests' default). */
const insertDomain = (server: TestServer, workspaceId: string, hostname: string, primary = true) =>
  insertVerifiedDomain(server, workspaceId, hostname, { primary, redirectPath: true });

/** A new workspace's site with a verified primary domain; protected with SITE_PASSWORD when asked. */
async function siteWithDomain(server: TestServer, name: string, domain: string, protect = false) {
  const slug = `${name}-${run}`;
  const { client } = await signUp(server.url);
  await createWorkspace(client, `${name} shop`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  if (protect) {
    const res = await client.post("/settings/site", { visibility: "protected", password: SITE_PASSWORD });
    expect(res.status).toBe(200);
  }
  await insertDomain(server, id, domain);
  return { owner: client as Client, slug, workspaceId: id, domain };
}

const cookieOf = (setCookie: string | string[] | undefined) => {
  const line = [setCookie ?? []].flat().find((c) => c.startsWith(`${COOKIE}=`));
  return { line, value: line ? /^[^=]+=([^;]*)/.exec(line)![1]! : undefined };
};

describe("custom domains (development mode)", () => {
  let server: TestServer;
  let shop: Awaited<ReturnType<typeof siteWithDomain>>;
  let vault: Awaited<ReturnType<typeof siteWithDomain>>;
  let safe: Awaited<ReturnType<typeof siteWithDomain>>;
  let mover: Awaited<ReturnType<typeof siteWithDomain>>;
  const on = (host: string, path: string, headers: Record<string, string> = {}) =>
    raw(server, "GET", path, { host, ...headers });

  /** The right password typed on `host`'s unlock page, as a browser posts it from that page. */
  async function unlockOn(host: string, path: string, next: string) {
    const { hostname, port } = new URL(server.url);
    const { request } = await import("node:http");
    const body = new URLSearchParams({ password: SITE_PASSWORD, next }).toString();
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>(
      (resolve, reject) => {
        const req = request(
          {
            host: hostname,
            port,
            method: "POST",
            path,
            setHost: false,
            headers: {
              host,
              origin: `http://${host}`,
              "content-type": "application/x-www-form-urlencoded",
              "content-length": String(Buffer.byteLength(body)),
            },
          },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
          },
        );
        req.on("error", reject);
        req.end(body);
      },
    );
  }

  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: DEPLOYMENT });
    shop = await siteWithDomain(server, "shop", `shop-${run}.example.test`);
    vault = await siteWithDomain(server, "vault", `vault-${run}.example.test`, true);
    safe = await siteWithDomain(server, "safe", `safe-${run}.example.test`, true);
    mover = await siteWithDomain(server, "mover", `mover-${run}.example.test`);
    // An alias of the shop's: a second verified domain, not the primary one.
    await insertDomain(server, shop.workspaceId, `www.shop-${run}.example.test`, false);
  });
  afterAll(() => server.close());

  describe("open redirects (security M1)", () => {
    it("answers /{slug}//evil.example with a path on the domain, never a protocol-relative URL", async () => {
      for (const [path, location] of [
        [`/${shop.slug}//evil.example/x`, "/evil.example/x"],
        [`/${shop.slug}///evil.example`, "/evil.example"],
        [`/${shop.slug}//evil.example/x?y=1`, "/evil.example/x?y=1"],
      ] as const) {
        const res = await on(shop.domain, path);
        expect(res.status, path).toBe(301);
        expect(res.headers.location, path).toBe(location);
      }
      // A backslash, which browsers read as `/`: refused outright.
      const backslash = await on(shop.domain, `/${shop.slug}/\\evil.example`);
      expect(backslash.status).toBe(400);
      expect(backslash.headers.location).toBeUndefined();
    });
  });

  describe("dot segments and encoded slashes (security L1)", () => {
    it("refuses them with 400 on a custom domain, before the rewrite reaches the console or another site", async () => {
      for (const path of [
        "/%2e%2e/login",
        "/../login",
        "/%2e%2e/api/editor/pages",
        `/%2e%2e/${vault.slug}`,
        `/.%2E/${vault.slug}/unlock`,
        "/..;/login",
        "/about/../../login",
        "/x%2f..%2f..%2flogin",
        "/x%5c..%5clogin",
        "/..\\login",
      ]) {
        const res = await on(shop.domain, path);
        expect(res.status, path).toBe(400);
        expect(res.headers["content-type"], path).toMatch(/^text\/plain/);
        expect(res.body, path).not.toContain("Sign in");
      }
      expect((await on(shop.domain, "/%2e%2e/api/editor/pages")).body).not.toContain("{");
    });

    it("still serves ordinary paths, and leaves the deployment's host to its own routes", async () => {
      expect((await on(shop.domain, "/")).status).toBe(200);
      expect((await on(shop.domain, "/robots.txt")).status).toBe(200);
      expect((await on(new URL(server.url).host, "/%2e%2e/login")).status).toBe(200);
    });
  });

  describe("the unlock page's next on a custom domain (security M2)", () => {
    const tricks = ["/.//evil.example/", "/%2e//evil.example/", "/a/..//evil.example/", "/./\\evil.example"];

    it("sends a visitor of a public site home, never to another host", async () => {
      for (const next of tricks) {
        const res = await on(shop.domain, `/unlock?next=${encodeURIComponent(next)}`);
        expect(res.status, next).toBe(302);
        expect(res.headers.location, next).toBe("/");
      }
    });

    it("sends a visitor who typed the password of a protected site home, never to another host", async () => {
      for (const next of tricks) {
        const res = await unlockOn(vault.domain, "/unlock", next);
        expect(res.status, next).toBe(303);
        expect(res.headers.location, next).toBe("/");
      }
      // An ordinary next still works.
      expect((await unlockOn(vault.domain, "/unlock", "/contact")).headers.location).toBe("/contact");
    });
  });

  describe("unlock cookies across sites' domains (maintainer #4)", () => {
    it("opens the site it was set for on its domain, and no other site, on its domain or path", async () => {
      expect((await on(vault.domain, "/")).status).toBe(302);
      const unlocked = await unlockOn(vault.domain, "/unlock", "/");
      expect(unlocked.status).toBe(303);
      const { line, value } = cookieOf(unlocked.headers["set-cookie"]);
      expect(line, "a cookie for the whole domain").toMatch(/;\s*Path=\/(;|$)/i);

      const cookie = `${COOKIE}=${value}`;
      expect((await on(vault.domain, "/", { cookie })).status).toBe(200);

      // The same value sent to another protected site's domain: locked.
      const other = await on(safe.domain, "/", { cookie });
      expect(other.status).toBe(302);
      expect(other.headers.location).toMatch(/^\/unlock\?next=/);
      expect((await on(safe.domain, "/contact", { cookie })).status).toBe(302);

      // And on the deployment's host, at the other site's path (the domain's switch sends /{slug} there).
      const deployment = await raw(server, "GET", `/${safe.slug}`, { host: new URL(server.url).host, cookie });
      expect(deployment.status).toBe(301);
      expect(deployment.headers.location).toBe(`https://${safe.domain}/`);
    });

    it("does not open another site's domain with a cookie set on the deployment's path", async () => {
      // The vault's pages stay on the deployment's host while its switch is off.
      await server.db
        .updateTable("site_domains")
        .set({ redirect_path: 0 })
        .where("workspace_id", "=", vault.workspaceId)
        .execute();
      server.atrium.runtime.services.siteDomains.invalidate();
      const deploymentHost = new URL(server.url).host;
      const unlocked = await unlockOn(deploymentHost, `/${vault.slug}/unlock`, `/${vault.slug}`);
      expect(unlocked.status).toBe(303);
      const { line, value } = cookieOf(unlocked.headers["set-cookie"]);
      expect(line).toMatch(new RegExp(`;\\s*Path=/${vault.slug}(;|$)`, "i"));
      const cookie = `${COOKIE}=${value}`;
      expect((await raw(server, "GET", `/${vault.slug}`, { host: deploymentHost, cookie })).status).toBe(200);
      expect((await on(safe.domain, "/", { cookie })).status).toBe(302);
    });
  });

  describe("a former address (maintainer #6, security M1)", () => {
    it("answers pages and technical files with the same 301 on the deployment's host, kept an hour", async () => {
      // The mover's pages stay on the deployment's host (switch off); then its slug changes.
      await server.db
        .updateTable("site_domains")
        .set({ redirect_path: 0 })
        .where("workspace_id", "=", mover.workspaceId)
        .execute();
      const former = mover.slug;
      mover = { ...mover, slug: await renameDirectly(mover, `${former}-a`) };
      server.atrium.runtime.services.siteDomains.invalidate();
      const host = new URL(server.url).host;
      for (const file of ["", "/robots.txt", "/sitemap.xml", "/llms.txt", "/og-image?title=Hi"]) {
        const answer = await raw(server, "GET", `/${former}${file}`, { host });
        expect(answer.status, file).toBe(301);
        expect(answer.headers.location, file).toBe(`/${mover.slug}${file}`);
        expect(answer.headers["cache-control"], file).toBe("public, max-age=3600");
      }
    });

    it("on a domain whose list is stale, reloads it and answers 307 on the same host, never another", async () => {
      for (const [path, location] of [
        ["//evil.example/x", "/evil.example/x"],
        ["/", "/"],
        ["/?x=1", "/?x=1"],
        ["/robots.txt", "/robots.txt"],
        ["/sitemap.xml", "/sitemap.xml"],
        ["/og-image?title=Hi", "/og-image?title=Hi"],
      ] as const) {
        // The list is loaded with the current slug, then the site renamed behind its back (as another node).
        expect((await on(mover.domain, "/")).status, path).toBe(200);
        mover = { ...mover, slug: await renameDirectly(mover, `${mover.slug}x`) };
        const answer = await on(mover.domain, path);
        expect(answer.status, path).toBe(307);
        expect(answer.headers.location, path).toBe(location);
        expect(answer.headers["cache-control"], path).toBe("no-store");
        // The list was reloaded: the same request now reaches the renamed site.
        expect((await on(mover.domain, location)).status, path).not.toBe(307);
      }
    });
  });

  describe("alias domains (maintainer #13)", () => {
    it("answers every path of a non-primary domain with 301 to the same path on the primary", async () => {
      const alias = `www.shop-${run}.example.test`;
      for (const [path, location] of [
        ["/", `https://${shop.domain}/`],
        ["/contact?x=1", `https://${shop.domain}/contact?x=1`],
        [`/${shop.slug}/contact`, `https://${shop.domain}/contact`],
      ] as const) {
        const res = await on(alias, path);
        expect(res.status, path).toBe(301);
        expect(res.headers.location, path).toBe(location);
        expect(res.headers["cache-control"], path).toBe("public, max-age=3600");
      }
      expect((await on(shop.domain, "/")).status).toBe(200);
    });
  });

  /**
   * The slug changed without this node's list of domains knowing (another node did it); returns `to`. That node's
   * purge of the workspace's pages reaches this one (the page cache's bus); its list of domains does not.
   */
  async function renameDirectly(site: { slug: string; workspaceId: string }, to: string) {
    await server.db.updateTable("workspaces").set({ slug: to }).where("id", "=", site.workspaceId).execute();
    await server.db
      .insertInto("workspace_previous_slugs")
      .values({
        slug: site.slug,
        workspace_id: site.workspaceId,
        moved_at: isoNow(),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      })
      .execute();
    await purgeTags(server.db, [cacheTags.workspace(site.workspaceId)]);
    return to;
  }
});

describe("HSTS on custom domains in production (maintainer #1)", () => {
  let server: TestServer;
  let domain: string;
  beforeAll(async () => {
    server = await startServer({ NODE_ENV: "production", PUBLIC_URL: DEPLOYMENT, TRUST_PROXY: "loopback" });
    // No mail to confirm a sign-up with in production: the account and its workspace straight in the database.
    const user = await createUser(server.db, { email: uniqueEmail(), password: PASSWORD });
    const workspace = await createWorkspaceRow(server.db, user.id, { name: "HSTS shop", slug: `hsts-${run}` });
    domain = `hsts-${run}.example.test`;
    await insertDomain(server, workspace.id, domain);
  });
  afterAll(() => server.close());

  it("covers subdomains of the deployment's host only; a customer's domain gets HSTS for itself", async () => {
    const own = await raw(server, "GET", "/login", { host: "atrium.example.test", "x-forwarded-proto": "https" });
    expect(own.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");

    const site = await raw(server, "GET", "/", { host: domain, "x-forwarded-proto": "https" });
    expect(site.status).toBe(200);
    expect(site.headers["strict-transport-security"]).toBe("max-age=31536000");

    const redirected = await raw(server, "GET", "/", { host: domain, "x-forwarded-proto": "http" });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.location).toBe(`https://${domain}/`);
    expect(redirected.headers["strict-transport-security"]).toBeUndefined();
  });
});
