/**
 * Protected sites (ADR 023): an admin sets a site's visibility in /settings/site; every page and file of a
 * protected site then redirects to its unlock page until the visitor types the password; wrong passwords are
 * refused with a message and throttled per address and site; the unlock cookie is HttpOnly, SameSite=Lax and
 * scoped to the site's path, opens that site only, and stops working when the password changes or the site
 * goes public. Pages shown to an unlocked visitor are never shared-cacheable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setTestClock } from "~/lib/clock.server";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { png } from "../helpers/files";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let filesDir: string;
beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), "atrium-protected-"));
  server = await startServer({ FILES_DIR: filesDir });
});
afterAll(async () => {
  await server.close();
  rmSync(filesDir, { recursive: true, force: true });
});
afterEach(() => setTestClock(undefined));

const PASSWORD = "open sesame 42";
const COOKIE = "atrium_site_unlock";

let sites = 0;
/** A signed-in owner with a new workspace (selected), its site's slug and workspace id. */
async function site(prefix = "locked") {
  sites += 1;
  const slug = `${prefix}-${process.pid}-${sites}`;
  const { client, email } = await signUp(server.url);
  await createWorkspace(client, `Private Bakery ${sites}`, slug);
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return { owner: client, email, slug, workspaceId: id };
}

const visitor = () => new Client(server.url);
const protect = (owner: Client, password = PASSWORD) =>
  owner.post("/settings/site", { visibility: "protected", password });
const makePublic = (owner: Client) => owner.post("/settings/site", { visibility: "public" });

async function protectedSite(prefix?: string) {
  const made = await site(prefix);
  const res = await protect(made.owner);
  expect(res.status).toBe(200);
  return made;
}

const accessRow = (workspaceId: string) =>
  server.db.selectFrom("site_access").selectAll().where("workspace_id", "=", workspaceId).executeTakeFirst();

/** A visitor who typed the right password on `slug`'s unlock page (and the Set-Cookie they got). */
async function unlocked(slug: string) {
  const client = visitor();
  const res = await client.post(`/${slug}/unlock`, { password: PASSWORD, next: `/${slug}` });
  expect(res.status).toBe(303);
  return { client, setCookie: res.headers.get("set-cookie") ?? "" };
}

describe("/settings/site", () => {
  it("shows an admin the site's visibility, and protects it with a password (stored as a hash only)", async () => {
    const { owner, workspaceId } = await site();
    const page = await (await owner.get("/settings/site")).text();
    expect(page).toContain("<h1>Site visibility</h1>");
    expect(page).toContain("Search engines are told not to index the site");
    expect(page).toMatch(/<a[^>]*href="\/settings\/site"[^>]*>Site visibility<\/a>/);

    const res = await protect(owner);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your site is now protected.");
    const row = await accessRow(workspaceId);
    expect(row).toMatchObject({ visibility: "protected" });
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
  });

  it("refuses a password under 8 or over 256 characters beside the field, and changes nothing", async () => {
    const { owner, slug, workspaceId } = await site();
    const short = await protect(owner, "short");
    expect(short.status).toBe(400);
    const html = await short.text();
    expect(html).toContain('id="password-error"');
    expect(html).toContain("Use at least 8 characters");
    expect((await protect(owner, "x".repeat(257))).status).toBe(400);
    expect(await accessRow(workspaceId)).toBeUndefined();
    // A public site asked to become protected without a password: the same refusal.
    expect((await protect(owner, "")).status).toBe(400);
    expect(await accessRow(workspaceId)).toBeUndefined();
    expect((await visitor().get(`/${slug}`)).status).toBe(200);
  });

  it("is for admins only: an editor is refused and changes nothing", async () => {
    const { owner, workspaceId } = await site();
    const editor = await signUp(server.url);
    await addMember(server.url, owner, editor, "editor");
    expect((await editor.client.get("/settings/site")).status).toBe(403);
    expect((await protect(editor.client)).status).toBe(403);
    expect(await accessRow(workspaceId)).toBeUndefined();
  });

  it("keeps the password when a protected site is saved with the field empty", async () => {
    const { owner, slug, workspaceId } = await protectedSite();
    const before = await accessRow(workspaceId);
    const res = await protect(owner, "");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("stays protected with its current password");
    expect(await accessRow(workspaceId)).toEqual(before);
    expect((await unlocked(slug)).setCookie).toContain(COOKIE);
  });
});

describe("a protected site", () => {
  it("redirects every page to its unlock page with the path asked for, never cached", async () => {
    const { slug } = await protectedSite();
    for (const path of [`/${slug}`, `/${slug}/contact`, `/${slug}/policies`, `/${slug}/no-such-page?x=1`]) {
      const res = await visitor().get(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      const location = new URL(res.headers.get("location")!, server.url);
      expect(location.pathname).toBe(`/${slug}/unlock`);
      expect(location.searchParams.get("next")).toBe(path);
    }
  });

  it("redirects its data requests too, even one that leaves the layout's loader out", async () => {
    const { slug } = await protectedSite();
    const res = await visitor().get(`/${slug}.data?_routes=${encodeURIComponent("routes/$site._index")}`);
    const body = await res.text();
    expect(body).not.toContain("Our new website is on its way");
    expect(body).toContain(`/${slug}/unlock`);
  });

  it("shows the unlock page in the site's frame: its name, no navigation, not indexed, not cached", async () => {
    const { slug } = await protectedSite();
    const res = await visitor().get(`/${slug}/unlock?next=/${slug}/contact`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain("This site is private");
    expect(html).toMatch(/<title>Password required · Private Bakery \d+<\/title>/);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(html).toContain(`name="next" value="/${slug}/contact"`);
    expect(html).not.toContain('aria-label="Main"');
    expect(html).not.toContain('aria-label="Footer"');
  });

  it("keeps its theme stylesheet and its logo open (the unlock page shows them), and closes its other files", async () => {
    const { owner, slug } = await protectedSite();
    const uploadImage = async (bytes: Uint8Array, filename: string) => {
      const res = await owner.request(`/api/editor/branding/media?filename=${filename}`, {
        method: "POST",
        body: new Uint8Array(bytes),
        headers: { "content-type": "image/png", origin: new URL(server.url).origin },
      });
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; url: string };
    };
    const logo = await uploadImage(await png(400, 120, [120, 40, 20]), "logo.png");
    const photo = await uploadImage(await png(600, 400, [20, 90, 160]), "photo.png");
    const saved = await owner.post("/website/branding", {
      intent: "save",
      logoId: logo.id,
      faviconId: "",
      socialImageId: "",
      brand: "#7a2e0e",
      accent: "#f2c14e",
      background: "#fffaf3",
      text: "#2b1d14",
      headingFont: "playfair-display",
      bodyFont: "work-sans",
      corners: "round",
    });
    expect(saved.status).toBe(200);

    const unlockHtml = await (await visitor().get(`/${slug}/unlock`)).text();
    const themeHref = /href="(\/[^"]+\/theme\.css\?v=[^"]+)"/.exec(unlockHtml)![1]!;
    expect((await visitor().get(themeHref)).status).toBe(200);
    const logoSrc = /<img class="site-brand__logo" src="([^"]+)"/.exec(unlockHtml)![1]!;
    const logoRes = await visitor().get(logoSrc);
    expect(logoRes.status).toBe(200);
    expect(logoRes.headers.get("cache-control")).toMatch(/^private\b/);

    const photoPath = new URL(photo.url, server.url).pathname;
    const closed = await visitor().get(photoPath);
    expect(closed.status).toBe(302);
    expect(closed.headers.get("location")).toBe(`/${slug}/unlock?next=${encodeURIComponent(photoPath)}`);
    const { client } = await unlocked(slug);
    const open = await client.get(photoPath);
    expect(open.status).toBe(200);
    expect(open.headers.get("content-type")).toBe("image/png");
    expect(open.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
  });

  it("refuses a wrong password with a message beside the field (403) and sets no cookie", async () => {
    const { slug } = await protectedSite();
    const client = visitor();
    const res = await client.post(`/${slug}/unlock`, { password: "not the password", next: `/${slug}` });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).toContain("That password is not right");
    expect(html).toMatch(/aria-invalid="true" aria-describedby="[^"]+-error"/);
    expect((await client.get(`/${slug}`)).status).toBe(302);
  });

  it("throttles guesses per address and site: the sixth in 15 minutes is 429 with Retry-After, even the right one", async () => {
    const { slug } = await protectedSite();
    const other = await protectedSite();
    const client = visitor();
    for (let i = 0; i < 5; i += 1) {
      expect((await client.post(`/${slug}/unlock`, { password: `wrong guess ${i}` })).status).toBe(403);
    }
    const refused = await client.post(`/${slug}/unlock`, { password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await refused.text()).toContain("Too many password attempts. Try again in 15 minutes.");
    // Another site's allowance is its own.
    expect((await client.post(`/${other.slug}/unlock`, { password: PASSWORD })).status).toBe(303);
  });

  it("unlocks with the right password: a 303 to the page asked for and a site-scoped, HttpOnly, SameSite=Lax cookie", async () => {
    const { slug } = await protectedSite();
    const client = visitor();
    const res = await client.post(`/${slug}/unlock`, { password: PASSWORD, next: `/${slug}/contact?from=mail` });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/${slug}/contact?from=mail`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const setCookie = res.headers.get("set-cookie")!;
    const attributes = setCookie.split(";").map((a) => a.trim());
    expect(attributes[0]).toMatch(new RegExp(`^${COOKIE}=v1\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    expect(attributes).toContain(`Path=/${slug}`);
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");
    expect(attributes).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    // Plain http here: a Secure cookie would never come back.
    expect(attributes).not.toContain("Secure");

    const home = await client.get(`/${slug}`);
    expect(home.status).toBe(200);
    expect(home.headers.get("cache-control")).toBe("private, no-store");
    expect(await home.text()).toContain("Our new website is on its way");
    const contact = await client.get(`/${slug}/contact`);
    expect(contact.status).toBe(200);
    expect(contact.headers.get("cache-control")).toBe("private, no-store");
    // The unlock page of an unlocked visitor sends them on.
    const again = await client.get(`/${slug}/unlock?next=/${slug}/contact`);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`/${slug}/contact`);
  });

  it("sends the visitor on only to a path of this site: never another origin, another site or the unlock page", async () => {
    const { slug } = await protectedSite();
    const other = await site();
    const cases: [string, string][] = [
      ["https://evil.example/", `/${slug}`],
      ["//evil.example/x", `/${slug}`],
      ["/\\evil.example", `/${slug}`],
      [`/${other.slug}/contact`, `/${slug}`],
      [`/${slug}x/contact`, `/${slug}`],
      [`/${slug}/../${other.slug}`, `/${slug}`],
      [`/${slug}/unlock`, `/${slug}`],
      ["javascript:alert(1)", `/${slug}`],
      [`/${slug}/policies?x=1`, `/${slug}/policies?x=1`],
    ];
    for (const [next, expected] of cases) {
      const res = await visitor().post(`/${slug}/unlock`, { password: PASSWORD, next });
      expect(res.status, next).toBe(303);
      expect(res.headers.get("location"), next).toBe(expected);
    }
  });

  it("refuses one site's cookie on another site's paths, even with the same password", async () => {
    const first = await protectedSite();
    const second = await protectedSite();
    const { client } = await unlocked(first.slug);
    const value = client.cookie(COOKIE)!;
    expect((await client.get(`/${first.slug}`)).status).toBe(200);

    const copied = visitor();
    copied.setCookie(COOKIE, value);
    expect((await copied.get(`/${second.slug}`)).status).toBe(302);
    expect((await copied.get(`/${second.slug}/contact`)).status).toBe(302);
    // Altered, or from a workspace id swapped into it: refused too.
    const forged = visitor();
    // A character inside the value, not its last: the last base64url character has unused bits, so changing it
    // can decode to the same bytes.
    let at = Math.floor(value.length / 2);
    while (!/[A-Za-z0-9]/.test(value[at]!)) at -= 1;
    forged.setCookie(COOKIE, `${value.slice(0, at)}${value[at] === "A" ? "B" : "A"}${value.slice(at + 1)}`);
    expect((await forged.get(`/${first.slug}`)).status).toBe(302);
  });

  it("takes a cookie the browser sends beside another site's one under the same name", async () => {
    const first = await protectedSite();
    const second = await protectedSite();
    const a = (await unlocked(first.slug)).client.cookie(COOKIE)!;
    const b = (await unlocked(second.slug)).client.cookie(COOKIE)!;
    const res = await fetch(`${server.url}/${second.slug}`, {
      headers: { cookie: `${COOKIE}=${a}; ${COOKIE}=${b}` },
      redirect: "manual",
    });
    expect(res.status).toBe(200);
  });

  it("signs out every visitor when the password changes", async () => {
    const { owner, slug } = await protectedSite();
    const { client } = await unlocked(slug);
    const changed = await protect(owner, "a brand new password");
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain("Password changed.");
    expect((await client.get(`/${slug}`)).status).toBe(302);
    expect((await visitor().post(`/${slug}/unlock`, { password: PASSWORD })).status).toBe(403);
    expect((await visitor().post(`/${slug}/unlock`, { password: "a brand new password" })).status).toBe(303);
  });

  it("opens to everyone when switched back to public, and an old cookie does not survive protecting it again", async () => {
    const { owner, slug, workspaceId } = await protectedSite();
    const { client } = await unlocked(slug);
    const res = await makePublic(owner);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Your site is public again");
    expect(await accessRow(workspaceId)).toMatchObject({ visibility: "public", password_hash: null });

    const page = await visitor().get(`/${slug}`);
    expect(page.status).toBe(200);
    // Cacheable again (not no-store; without PUBLIC_URL shared caches are told "private, no-cache"): a hit next.
    expect(page.headers.get("cache-control")).not.toContain("no-store");
    expect((await visitor().get(`/${slug}`)).headers.get("age")).not.toBeNull();
    // Its unlock page has nothing to ask: on to the page.
    const unlock = await visitor().get(`/${slug}/unlock?next=/${slug}/contact`);
    expect(unlock.status).toBe(302);
    expect(unlock.headers.get("location")).toBe(`/${slug}/contact`);

    expect((await protect(owner)).status).toBe(200);
    expect((await client.get(`/${slug}`)).status).toBe(302);
  });

  it("asks again after 30 days", async () => {
    const { slug } = await protectedSite();
    const { client } = await unlocked(slug);
    setTestClock(() => new Date(Date.now() + 29 * 24 * 3600 * 1000));
    expect((await client.get(`/${slug}`)).status).toBe(200);
    setTestClock(() => new Date(Date.now() + 31 * 24 * 3600 * 1000));
    expect((await client.get(`/${slug}`)).status).toBe(302);
  });

  it("leaves a public site's pages to the page cache (no PUBLIC_URL here, so no CDN may keep them)", async () => {
    const { slug } = await site();
    const res = await visitor().get(`/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect((await visitor().get(`/${slug}`)).headers.get("age")).not.toBeNull();
  });
});
