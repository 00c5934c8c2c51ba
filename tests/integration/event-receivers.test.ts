/**
 * Event receivers (issue 15 item 3, ADR 027) over real HTTP: each family's signed event changes the public
 * page at the next request; a duplicate is applied once; a bad signature, a stale timestamp, an unknown family,
 * an event for another workspace, an oversized body and a spent rate limit are refused, recorded, and change
 * nothing; a rotated secret works until its overlap ends, a revoked one never; the console replays an event.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { request as httpRequest } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setTestClock } from "~/lib/clock.server";
import { defineEventFamily, eventEnvelope, type EventFamily } from "~/modules/events/family";
import { signWebhook, verifyWebhook } from "~/modules/webhooks/standard-webhooks.server";
import { type Client, createWorkspace, signUp } from "../helpers/client";
import { startFakeDns, type FakeDns } from "../helpers/fake-dns";
import { startServer, type TestServer } from "../helpers/server";

const TARGET = "sites.atrium.test";
const SLUG = `events-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SLUG = `events-other-${Math.random().toString(36).slice(2, 7)}`;
const PER_MINUTE = 40;

let server: TestServer;
let dns: FakeDns;
let filesDir: string;
let owner: Client;
let other: Client;
let workspaceId: string;
let otherWorkspaceId: string;
const secrets = new Map<string, string>();

const idOf = async (slug: string) =>
  (await server.db.selectFrom("workspaces").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;

/** Creates (or rotates) a family's secret in the console and reads it from the page, where it is shown once. */
async function createSecret(client: Client, family: string, intent: "create" | "rotate" = "create"): Promise<string> {
  const res = await client.post("/settings/webhooks", { intent, family });
  const html = await res.text();
  expect(res.status, html).toBe(200);
  const secret = /data-testid="new-webhook-secret">(whsec_[^<]+)</.exec(html)?.[1];
  expect(secret, "the new secret is shown").toBeTruthy();
  return secret!;
}

let sequence = 0;
interface SendOptions {
  secret?: string;
  id?: string;
  timestamp?: number;
  workspace?: string | null;
  raw?: string;
  /** Another loopback address to send from (127.0.0.2): another client, as the server sees it. */
  from?: string;
}
/** A POST from a given local address (fetch cannot choose one). */
function postFrom(from: string, url: string, body: string, headers: Record<string, string>) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: pathname, method: "POST", localAddress: from, headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
async function sendEvent(family: string, body: unknown, options: SendOptions = {}) {
  const text = options.raw ?? JSON.stringify(body);
  const id = options.id ?? `msg_${process.pid}_${++sequence}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const secret = options.secret ?? secrets.get(family.split("/")[0]!) ?? secrets.get("branding")!;
  const workspace = options.workspace === undefined ? workspaceId : options.workspace;
  const headers = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, id, timestamp, text),
    ...(workspace ? { "atrium-workspace": workspace } : {}),
  };
  if (options.from) {
    const res = await postFrom(options.from, `${server.url}/api/webhooks/${family}`, text, headers);
    return { status: res.status, body: JSON.parse(res.text) as Record<string, unknown>, id };
  }
  const res = await fetch(`${server.url}/api/webhooks/${family}`, { method: "POST", body: text, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, id };
}

const event = (type: string, data: unknown, workspace = workspaceId) => ({ type, workspace, data });
const publicPage = async (path = "") => {
  const res = await fetch(`${server.url}/${SLUG}${path}`);
  return { status: res.status, html: await res.text(), age: res.headers.get("age") };
};
/** The page as a hit of the page cache (a second GET answered with `age`): an event's purge is then what shows. */
const cachedPage = async (path = "") => {
  await publicPage(path);
  const hit = await publicPage(path);
  expect(hit.status).toBe(200);
  expect(hit.age, `${path || "/"} is served from the page cache before the event`).not.toBeNull();
  return hit;
};
/** The next GET after an event: rendered afresh (no `age`), so the purge reached the cache. */
const freshPage = async (path = "") => {
  const page = await publicPage(path);
  expect(page.age, `${path || "/"} is rendered afresh after the event`).toBeNull();
  return page;
};
const logOf = (family?: string) => {
  let query = server.db.selectFrom("webhook_receiver_events").selectAll().where("workspace_id", "=", workspaceId);
  if (family) query = query.where("family", "=", family);
  return query.orderBy("received_at", "desc").execute();
};
const rowOf = async (eventId: string) => (await logOf()).filter((r) => r.event_id === eventId);

async function newPage(title: string, slug: string, fields: Record<string, string> = {}): Promise<string> {
  const res = await owner.post("/website/pages/new", { inNavigation: "on", title, slug });
  expect(res.status, await res.clone().text()).toBe(302);
  const id = /^\/website\/pages\/([^/?]+)\?created=1$/.exec(res.headers.get("location") ?? "")?.[1];
  expect(id).toBeTruthy();
  const saved = await owner.post(`/website/pages/${id}`, {
    intent: "save",
    title,
    slug,
    description: "",
    "blocks.0.type": "hero",
    "blocks.0.heading": `${title} heading`,
    "blocks.0.text": "Fresh every morning.",
    "blocks.0.imageId": "",
    "blocks.0.ctaLabel": "",
    "blocks.0.ctaHref": "",
    ...fields,
  });
  expect([200, 302], await saved.clone().text()).toContain(saved.status);
  return id!;
}

beforeAll(async () => {
  dns = await startFakeDns();
  dns.set(TARGET, { A: ["203.0.113.10"] });
  filesDir = mkdtempSync(join(tmpdir(), "atrium-events-"));
  server = await startServer({
    FILES_DIR: filesDir,
    DNS_SERVERS: dns.server,
    DNS_TIMEOUT_MS: "200",
    DOMAIN_CNAME_TARGET: TARGET,
    WEBHOOKS_PER_WORKSPACE_PER_MINUTE: String(PER_MINUTE),
    WEBHOOKS_ROTATION_OVERLAP_HOURS: "2",
  });
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Event Bakery", SLUG);
  workspaceId = await idOf(SLUG);
  other = (await signUp(server.url)).client;
  await createWorkspace(other, "Other Bakery", OTHER_SLUG);
  otherWorkspaceId = await idOf(OTHER_SLUG);
  for (const family of ["branding", "settings", "pages", "media", "domains"]) {
    secrets.set(family, await createSecret(owner, family));
  }
});
afterAll(async () => {
  await server.close();
  await dns.close();
  rmSync(filesDir, { recursive: true, force: true });
});
afterEach(() => setTestClock(undefined));

describe("the signature", () => {
  it("matches the Standard Webhooks test vector", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const headers = {
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    };
    expect(signWebhook(secret, headers["webhook-id"], 1614265330, '{"test": 2432232314}')).toBe(
      headers["webhook-signature"],
    );
    expect(verifyWebhook(secret, headers, '{"test": 2432232314}', 1614265330)).toBe(true);
    expect(verifyWebhook(secret, headers, '{"test": 2432232315}', 1614265330)).toBe(false);
  });
});

describe("each family changes the public site at the next request", () => {
  it("branding.updated: the theme the page links changes", async () => {
    const before = await cachedPage();
    const themeBefore = /href="([^"]*theme\.css[^"]*)"/.exec(before.html)?.[1];
    const sent = await sendEvent("branding", event("branding.updated", { colors: { brand: "#7a1f3d" } }));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ status: "applied", duplicate: false, eventId: sent.id });
    const after = await freshPage();
    const themeAfter = /href="([^"]*theme\.css[^"]*)"/.exec(after.html)?.[1];
    expect(themeAfter).not.toBe(themeBefore);
    const css = await (await fetch(new URL(themeAfter!.replace(/&amp;/g, "&"), server.url))).text();
    expect(css.toLowerCase()).toContain("#7a1f3d");
    expect((await rowOf(sent.id))[0]).toMatchObject({ status: "applied", event_type: "branding.updated" });
  });

  it("settings.updated: the footer shows the new tagline and phone", async () => {
    expect((await cachedPage()).html).not.toContain("Rye on Saturdays");
    const sent = await sendEvent(
      "settings",
      event("settings.updated", { profile: { tagline: "Rye on Saturdays", phone: "+44 20 7946 0000" } }),
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const html = (await freshPage()).html;
    expect(html).toContain("Rye on Saturdays");
    expect(html).toContain("+44 20 7946 0000");
    expect(html).not.toContain('content="noindex"');

    expect((await publicPage("/policies/privacy")).status).toBe(404);
    const more = await sendEvent(
      "settings",
      event("settings.updated", {
        noindex: true,
        policies: { privacy: { title: "Privacy", markdown: "We keep **nothing**.", published: true } },
      }),
    );
    expect(more.status, JSON.stringify(more.body)).toBe(200);
    expect((await publicPage()).html).toContain('content="noindex"');
    const policy = await publicPage("/policies/privacy");
    expect(policy.status).toBe(200);
    expect(policy.html).toContain("<strong>nothing</strong>");
    expect((await sendEvent("settings", event("settings.updated", { noindex: false }))).status).toBe(200);
  });

  it("settings.updated applies all of its parts or none: a policy refused after the profile leaves both unsaved", async () => {
    expect((await cachedPage()).html).not.toContain("Half saved");
    const refused = await sendEvent(
      "settings",
      event("settings.updated", {
        profile: { tagline: "Half saved" },
        noindex: true,
        // Passes the event's schema; the policies module refuses raw HTML in its own check, after the profile.
        policies: { terms: { title: "Terms", markdown: "Read <b>this</b>.", published: true } },
      }),
    );
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("Remove the HTML");
    // Rendered from the database (a query no page declares passes the cache by): nothing of the event is there.
    const html = (await publicPage("?rendered=now")).html;
    expect(html).toContain("<footer");
    expect(html).not.toContain("Half saved");
    expect(html).not.toContain('content="noindex"');
    expect((await publicPage("/policies/terms?rendered=now")).status).toBe(404);
  });

  it("page.published / page.unpublished: the page appears, then leaves the site", async () => {
    const pageId = await newPage("Opening hours", "opening-hours");
    expect((await publicPage("/opening-hours")).status).toBe(404);
    await cachedPage();
    const published = await sendEvent("pages", event("page.published", { pageId }));
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    // The cached home page (its frame lists the site's pages) was purged: the next GET renders afresh.
    await freshPage();
    const shown = await publicPage("/opening-hours");
    expect(shown.status).toBe(200);
    expect(shown.html).toContain("Opening hours heading");
    expect((await sendEvent("pages", event("page.unpublished", { pageId }))).status).toBe(200);
    expect((await publicPage("/opening-hours")).status).toBe(404);
  });

  it("media.updated / media.deleted: the image's alt text changes, then the image leaves the page", async () => {
    const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#c0ffee" } })
      .png()
      .toBuffer();
    const uploaded = await owner.request("/api/editor/branding/media?filename=loaf.png", {
      method: "POST",
      body: new Uint8Array(bytes),
      headers: { "content-type": "image/png", origin: new URL(server.url).origin },
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const fileId = ((await uploaded.json()) as { id: string }).id;
    const pageId = await newPage("Our loaves", "loaves", { "blocks.0.imageId": fileId });
    expect((await sendEvent("pages", event("page.published", { pageId }))).status).toBe(200);
    expect((await cachedPage("/loaves")).html).not.toContain("A dark rye loaf");

    const described = await sendEvent("media", event("media.updated", { fileId, alt: "A dark rye loaf" }));
    expect(described.status, JSON.stringify(described.body)).toBe(200);
    const page = await freshPage("/loaves");
    expect(page.html).toContain('alt="A dark rye loaf"');

    expect((await sendEvent("media", event("media.deleted", { fileId }))).status).toBe(200);
    expect((await publicPage("/loaves")).html).not.toContain("A dark rye loaf");
  });

  it("domain.changed: the domain is checked now and serves the site from the next request", async () => {
    const hostname = `shop-${process.pid}.example.com`;
    expect((await owner.post("/settings/domains", { intent: "add", hostname })).status).toBe(200);
    const token = (
      await server.db
        .selectFrom("site_domains")
        .select("token")
        .where("hostname", "=", hostname)
        .executeTakeFirstOrThrow()
    ).token;
    dns.set(`_atrium.${hostname}`, { TXT: [token] });
    dns.set(hostname, { CNAME: TARGET });
    expect((await onHost(hostname, "/")).status).not.toBe(200);
    expect((await cachedPage()).html).not.toContain(hostname);

    const sent = await sendEvent("domains", event("domain.changed", { hostname }));
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    // The cached page under /{site} was purged with the workspace: it now moves to its new address.
    const moved = await fetch(`${server.url}/${SLUG}`, { redirect: "manual" });
    expect(moved.headers.get("age")).toBeNull();
    expect(`${moved.status} ${moved.headers.get("location")}`).toContain(hostname);
    const served = await onHost(hostname, "/");
    expect(served.status).toBe(200);
    expect(served.body).toContain("Event Bakery");
    // The verified domain became the site's address: keep /{site} answering here for the tests below.
    expect((await owner.post("/settings/domains", { intent: "redirect", hostname, redirect: "off" })).status).toBe(200);
  });
});

function onHost(host: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers: { host }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("what changes nothing", () => {
  const tagline = async () => (await publicPage()).html.match(/site-footer__tagline">([^<]*)</)?.[1];

  it("applies a duplicate once and answers it 200 { duplicate: true }", async () => {
    const body = event("settings.updated", { profile: { tagline: "Once only" } });
    const first = await sendEvent("settings", body, { id: "msg_dup_1" });
    expect(first.status).toBe(200);
    // Changed in between: a second apply of the duplicate would put "Once only" back.
    expect(
      (await sendEvent("settings", event("settings.updated", { profile: { tagline: "Changed since" } }))).status,
    ).toBe(200);
    const again = await sendEvent("settings", body, { id: "msg_dup_1" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, status: "duplicate", eventId: "msg_dup_1" });
    expect(await tagline()).toBe("Changed since");
    const rows = await rowOf("msg_dup_1");
    expect(rows.map((r) => r.status).sort()).toEqual(["applied", "duplicate"]);
  });

  it("applies one of two copies sent at once; the other is a duplicate or asked to retry", async () => {
    const body = event("settings.updated", { profile: { tagline: "Raced" } });
    const answers = await Promise.all([
      sendEvent("settings", body, { id: "msg_race" }),
      sendEvent("settings", body, { id: "msg_race" }),
    ]);
    const applied = answers.filter((a) => a.status === 200 && a.body.status === "applied");
    expect(applied).toHaveLength(1);
    const other = answers.find((a) => a !== applied[0])!;
    expect([200, 409]).toContain(other.status);
    expect((await rowOf("msg_race")).filter((r) => r.status === "applied")).toHaveLength(1);
  });

  it("answers 500 when the apply fails, records it failed, and a retry with the same id applies it", async () => {
    const body = event("settings.updated", { noindex: true });
    // The table the apply writes is briefly missing: a failure that is no fault of the event.
    await sql`alter table site_discovery rename to site_discovery_away`.execute(server.db);
    let failed;
    try {
      failed = await sendEvent("settings", body, { id: "msg_retry" });
    } finally {
      await sql`alter table site_discovery_away rename to site_discovery`.execute(server.db);
    }
    expect(failed.status).toBe(500);
    expect((await rowOf("msg_retry"))[0]).toMatchObject({ status: "failed" });
    const retried = await sendEvent("settings", body, { id: "msg_retry" });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: "applied", duplicate: false });
    expect((await rowOf("msg_retry")).map((r) => r.status)).toEqual(["applied"]);
    expect((await publicPage()).html).toContain('content="noindex"');
    expect((await sendEvent("settings", event("settings.updated", { noindex: false }))).status).toBe(200);
  });

  it("refuses a bad signature (401), records it, and changes nothing", async () => {
    const before = await tagline();
    const forged = await sendEvent("settings", event("settings.updated", { profile: { tagline: "Forged" } }), {
      secret: "whsec_" + Buffer.alloc(32, 7).toString("base64"),
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: "Unauthorized", message: "Invalid signature", statusCode: 401 });
    expect(await tagline()).toBe(before);
    expect((await rowOf(forged.id))[0]).toMatchObject({ status: "refused", reason: "bad_signature", verified: 0 });
    // Refusals are no write amplifier: the next forgery of this family, address and reason within the minute is
    // answered alike but not recorded.
    const again = await sendEvent("settings", event("settings.updated", { profile: { tagline: "Forged" } }), {
      secret: "whsec_" + Buffer.alloc(32, 7).toString("base64"),
    });
    expect(again.status).toBe(401);
    expect(await rowOf(again.id)).toHaveLength(0);
    // A forged body is kept in part only: an unauthenticated sender cannot fill the log 256 KB at a time.
    const bulky = await sendEvent("media", event("media.updated", { alt: "y".repeat(100_000) }), {
      secret: "whsec_" + Buffer.alloc(32, 7).toString("base64"),
    });
    expect(bulky.status).toBe(401);
    expect((await rowOf(bulky.id))[0]!.body.length).toBeLessThanOrEqual(4096);
    // The forged delivery did not take the id: the real event with it still applies.
    const real = await sendEvent("settings", event("settings.updated", { profile: { tagline: "Real" } }), {
      id: forged.id,
    });
    expect(real.status).toBe(200);
    expect(await tagline()).toBe("Real");
  });

  it("refuses a stale timestamp (401) even when signed, and records it", async () => {
    const stale = await sendEvent("settings", event("settings.updated", { profile: { tagline: "Late" } }), {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe("Timestamp outside the replay window");
    expect(await tagline()).not.toBe("Late");
    expect((await rowOf(stale.id))[0]).toMatchObject({ status: "refused", reason: "stale_timestamp" });
  });

  it("answers an unknown family 404, and an unknown workspace exactly as a known one with a wrong secret", async () => {
    const family = await sendEvent("recipes", event("recipes.updated", {}));
    expect(family.status).toBe(404);
    const unknown = await sendEvent("settings", event("settings.updated", {}), {
      workspace: "01NOSUCHWORKSPACE0000000000",
    });
    const wrongSecret = await sendEvent("settings", event("settings.updated", {}), {
      secret: "whsec_" + Buffer.alloc(32, 9).toString("base64"),
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrongSecret.body);
    expect((await rowOf(family.id))[0]).toMatchObject({
      status: "refused",
      reason: "unknown_family",
      family: "recipes",
    });
    const unnamed = await sendEvent("settings", event("settings.updated", {}), { workspace: null });
    expect(unnamed.status).toBe(400);
  });

  it("never lets an event signed for one workspace touch another (403), recorded", async () => {
    const otherSecret = await createSecret(other, "settings");
    const before = await (await fetch(`${server.url}/${OTHER_SLUG}`)).text();
    // Signed with A's secret and sent for A, but the body names B.
    const crossed = await sendEvent(
      "settings",
      event("settings.updated", { profile: { tagline: "Hijacked" } }, otherWorkspaceId),
    );
    expect(crossed.status).toBe(403);
    expect((await rowOf(crossed.id))[0]).toMatchObject({ status: "refused", reason: "workspace_mismatch" });
    // Signed with A's secret, sent for B: B's secrets do not verify it.
    const misdirected = await sendEvent(
      "settings",
      event("settings.updated", { profile: { tagline: "Hijacked" } }, otherWorkspaceId),
      { workspace: otherWorkspaceId },
    );
    expect(misdirected.status).toBe(401);
    expect(await (await fetch(`${server.url}/${OTHER_SLUG}`)).text()).not.toContain("Hijacked");
    expect(before).not.toContain("Hijacked");
    expect(otherSecret).not.toBe(secrets.get("settings"));

    // B's own, authentic event while B's owner is suspended: 403, recorded, nothing changes.
    const ownerOfB = (
      await server.db
        .selectFrom("workspaces")
        .select("owner_user_id")
        .where("id", "=", otherWorkspaceId)
        .executeTakeFirstOrThrow()
    ).owner_user_id;
    await server.db.updateTable("users").set({ status: "suspended" }).where("id", "=", ownerOfB).execute();
    try {
      const suspended = await sendEvent(
        "settings",
        event("settings.updated", { profile: { tagline: "While suspended" } }, otherWorkspaceId),
        { workspace: otherWorkspaceId, secret: otherSecret },
      );
      expect(suspended.status).toBe(403);
      const row = await server.db
        .selectFrom("webhook_receiver_events")
        .select(["status", "reason"])
        .where("workspace_id", "=", otherWorkspaceId)
        .where("event_id", "=", suspended.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: "refused", reason: "owner_suspended" });
    } finally {
      await server.db.updateTable("users").set({ status: "active" }).where("id", "=", ownerOfB).execute();
    }
  });

  it("refuses a body over 256 KB (413) before looking at its signature, recorded", async () => {
    const raw = JSON.stringify(event("settings.updated", { profile: { tagline: "x".repeat(300 * 1024) } }));
    const big = await sendEvent("settings", null, { raw });
    expect(big.status).toBe(413);
    expect((await rowOf(big.id))[0]).toMatchObject({ status: "refused", reason: "too_large" });
  });

  it("checks a settings event's profile with the console's own schema, and keeps the fields it omits", async () => {
    const bad = await sendEvent(
      "settings",
      event("settings.updated", { profile: { phone: "call us", currency: "XYZ" } }),
    );
    expect(bad.status).toBe(400);
    const fields = (bad.body.issues as { field: string }[]).map((i) => i.field).sort();
    expect(fields).toEqual(["data.profile.currency", "data.profile.phone"]);
    // Refused by the event's schema (step 6), not by the apply.
    expect((await rowOf(bad.id))[0]!.reason).toMatch(/^invalid_body: /);
    const phone = "+44 20 7946 1111";
    expect((await sendEvent("settings", event("settings.updated", { profile: { phone } }))).status).toBe(200);
    expect((await sendEvent("settings", event("settings.updated", { profile: { tagline: "Omits" } }))).status).toBe(
      200,
    );
    const html = (await publicPage()).html;
    expect(html).toContain("Omits");
    expect(html).toContain(phone);
  });

  it("refuses a body that is not the family's event (400 with issues), recorded", async () => {
    const bad = await sendEvent("pages", event("page.archived", { pageId: "x" }));
    expect(bad.status).toBe(400);
    expect(Array.isArray(bad.body.issues)).toBe(true);
    expect((await rowOf(bad.id))[0]).toMatchObject({ status: "refused" });
  });
});

describe("secrets", () => {
  it("keeps a rotated secret valid for the overlap, refuses it after, and never a revoked one", async () => {
    const old = secrets.get("branding")!;
    const fresh = await createSecret(owner, "branding", "rotate");
    const body = () => event("branding.updated", { corners: "soft" });
    expect((await sendEvent("branding", body(), { secret: old })).status).toBe(200);
    expect((await sendEvent("branding", body(), { secret: fresh })).status).toBe(200);

    // Three hours later (the overlap is two): the old secret no longer verifies.
    const later = Date.now() + 3 * 3_600_000;
    setTestClock(() => new Date(later));
    const expired = await sendEvent("branding", body(), { secret: old, timestamp: Math.floor(later / 1000) });
    expect(expired.status).toBe(401);
    expect((await rowOf(expired.id))[0]).toMatchObject({ reason: "bad_signature" });
    expect((await sendEvent("branding", body(), { secret: fresh, timestamp: Math.floor(later / 1000) })).status).toBe(
      200,
    );
    setTestClock(undefined);

    const current = await server.db
      .selectFrom("webhook_receiver_secrets")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("family", "=", "branding")
      .where("expires_at", "is", null)
      .executeTakeFirstOrThrow();
    expect((await owner.post("/settings/webhooks", { intent: "revoke", secretId: current.id })).status).toBe(200);
    expect((await sendEvent("branding", body(), { secret: fresh })).status).toBe(401);
    const audit = await server.db
      .selectFrom("audit_events")
      .select("action")
      .where("workspace_id", "=", workspaceId)
      .where("action", "like", "webhooks.secret.%")
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["webhooks.secret.created", "webhooks.secret.rotated", "webhooks.secret.revoked"]),
    );
    // The secrets are sealed at rest: no row holds one in clear.
    const stored = await server.db.selectFrom("webhook_receiver_secrets").select("secret_enc").execute();
    expect(stored.some((r) => r.secret_enc.includes(fresh.slice(6)))).toBe(false);
    secrets.set("branding", await createSecret(owner, "branding"));
  });
});

describe("the console", () => {
  it("lists the events with their reasons and replays a verified one, recording the replay", async () => {
    const page = await owner.get("/settings/webhooks?family=settings&status=refused");
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Signature does not match any current secret");
    expect(html).toContain(`/api/webhooks/settings?workspace=${workspaceId}`);

    const sent = await sendEvent("settings", event("settings.updated", { profile: { tagline: "Replayed" } }));
    expect(sent.status).toBe(200);
    expect((await sendEvent("settings", event("settings.updated", { profile: { tagline: "Newer" } }))).status).toBe(
      200,
    );
    const row = (await rowOf(sent.id))[0]!;
    const replay = await owner.post("/settings/webhooks", { intent: "replay", eventRow: row.id });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toContain("Event replayed");
    expect((await publicPage()).html).toContain("Replayed");
    expect((await rowOf(sent.id))[0]).toMatchObject({ status: "applied", replays: 1 });

    const refused = (await logOf("settings")).find((r) => r.status === "refused")!;
    const notReplayed = await owner.post("/settings/webhooks", { intent: "replay", eventRow: refused.id });
    expect(await notReplayed.text()).toContain("Only a verified event");
    // Another workspace's operator cannot replay this one's events.
    const foreign = await other.post("/settings/webhooks", { intent: "replay", eventRow: row.id });
    expect(await foreign.text()).toContain("No such event");
  });
});

describe("the rate limit", () => {
  it("refuses past the limit per workspace and family before reading a secret, recording one refusal", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE + 3; i++) {
      statuses.push((await sendEvent("domains", event("domain.changed", { hostname: "nowhere.example.com" }))).status);
    }
    expect(statuses).toContain(429);
    const refused = (await logOf("domains")).filter((r) => r.reason === "rate_limited");
    expect(refused).toHaveLength(1);
    // Another family of the same workspace still receives.
    expect((await sendEvent("branding", event("branding.updated", { corners: "round" }))).status).toBe(200);
  });

  it("lets no flood of forged events from one address make a signed event from another get 429", async () => {
    const forger = "whsec_" + Buffer.alloc(32, 5).toString("base64");
    const statuses = new Set<number>();
    for (let i = 0; i < PER_MINUTE + 3; i++) {
      const forged = await sendEvent("pages", event("page.published", { pageId: "forged" }), { secret: forger });
      statuses.add(forged.status);
    }
    expect([...statuses].sort()).toEqual([401, 429]);
    // The real sender, at another address, still gets through (its own share, and the verified allowance).
    const page = await newPage("Flood proof", "flood-proof");
    const real = await sendEvent("pages", event("page.published", { pageId: page }), { from: "127.0.0.2" });
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect((await publicPage("/flood-proof")).status).toBe(200);
    // The flood was recorded a handful of times, not once per request.
    const flood = (await logOf("pages")).filter((r) => r.reason === "bad_signature" || r.reason === "rate_limited");
    expect(flood).toHaveLength(2);
  });
});

describe("/api/openapi.json", () => {
  it("describes each family: its headers, signature scheme, body schema and answers", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, { post?: Record<string, unknown> }>;
      components: { securitySchemes: Record<string, { name?: string }> };
    };
    expect(doc.components.securitySchemes.standardWebhooks?.name).toBe("webhook-signature");
    for (const family of ["branding", "settings", "pages", "media", "domains", "products", "bookings"]) {
      const post = doc.paths[`/api/webhooks/${family}`]?.post as {
        parameters: { name: string }[];
        security: Record<string, unknown>[];
        requestBody: { content: { "application/json": { schema: { properties?: Record<string, unknown> } } } };
        responses: Record<string, unknown>;
      };
      expect(post, family).toBeDefined();
      expect(post.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining([
          "Atrium-Workspace",
          "workspace",
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature",
        ]),
      );
      expect(post.security).toEqual([{ standardWebhooks: [] }]);
      expect(Object.keys(post.responses)).toEqual(
        expect.arrayContaining(["200", "400", "401", "403", "404", "413", "429", "500"]),
      );
      expect(JSON.stringify(post.requestBody.content["application/json"].schema)).toContain('"workspace"');
    }
    const branding = doc.paths["/api/webhooks/branding"]!.post as {
      requestBody: { content: { "application/json": { schema: { properties: Record<string, { const?: string }> } } } };
    };
    expect(branding.requestBody.content["application/json"].schema.properties.type?.const).toBe("branding.updated");
  });
});

describe("a provider family with its own signature scheme and a body-borne id", () => {
  // A test-only family, registered on this server's registry (not in any product module): a Stripe-style
  // `Provider-Signature: t=<seconds>,v1=<hex HMAC of "t." + raw body>` and the event id in the body.
  const PROVIDER_SECRET = "provider-test-secret";
  const applied: string[] = [];
  const hmac = (t: string, raw: Buffer | string) =>
    createHmac("sha256", PROVIDER_SECRET).update(`${t}.`).update(raw).digest("hex");
  const testFamily = defineEventFamily({
    family: "test-provider",
    schema: eventEnvelope("charge.succeeded", z.object({ amount: z.number() })).extend({ id: z.string() }),
    describe: {
      summary: "Test provider",
      description: "Test only",
      example: { type: "charge.succeeded", workspace: "x", id: "evt_1", data: { amount: 1 } },
    },
    secret: () => Promise.resolve([PROVIDER_SECRET]),
    verify(headers, rawBytes, secrets, nowSeconds, tolerance) {
      const parts = Object.fromEntries(
        (headers.get("provider-signature") ?? "").split(",").map((p) => p.split("=", 2) as [string, string]),
      );
      if (!parts.t || !parts.v1 || !/^[1-9]\d*$/.test(parts.t)) return false;
      const given = Buffer.from(parts.v1);
      const ok = secrets.some((secret) => {
        const expected = Buffer.from(createHmac("sha256", secret).update(`${parts.t}.`).update(rawBytes).digest("hex"));
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
      if (!ok) return false;
      return Math.abs(nowSeconds - Number(parts.t)) > tolerance ? "stale" : true;
    },
    eventId: (body) => (body as { id?: unknown } | undefined)?.id as string | undefined,
    apply(_services, _workspace, event) {
      applied.push(event.id);
      return Promise.resolve();
    },
  });
  const send = async (body: unknown, signature?: string) => {
    const raw = JSON.stringify(body);
    const t = String(Math.floor(Date.now() / 1000));
    const res = await fetch(`${server.url}/api/webhooks/test-provider`, {
      method: "POST",
      body: raw,
      headers: {
        "content-type": "application/json",
        "atrium-workspace": workspaceId,
        "provider-signature": signature ?? `t=${t},v1=${hmac(t, raw)}`,
      },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(() => {
    const registry = server.atrium.runtime.services.eventFamilies as unknown as {
      register(families: EventFamily[]): void;
    };
    registry.register([testFamily]);
  });

  it("verifies with the family's verify (no Standard Webhooks headers) and applies a duplicate by body id once", async () => {
    const body = { type: "charge.succeeded", workspace: workspaceId, id: "evt_body_1", data: { amount: 1200 } };
    const first = await send(body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ eventId: "evt_body_1", status: "applied", duplicate: false });
    const again = await send(body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ eventId: "evt_body_1", duplicate: true });
    expect(applied).toEqual(["evt_body_1"]);
    expect((await rowOf("evt_body_1")).map((r) => r.status).sort()).toEqual(["applied", "duplicate"]);

    // A wrong provider signature is refused like any bad signature, and changes nothing.
    const forged = await send({ ...body, id: "evt_body_2" }, `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`);
    expect(forged.status).toBe(401);
    const stale = await send(
      { ...body, id: "evt_body_3" },
      `t=1000000000,v1=${hmac("1000000000", JSON.stringify({ ...body, id: "evt_body_3" }))}`,
    );
    expect(stale.status).toBe(401);
    expect(stale.body.message).toBe("Timestamp outside the replay window");
    expect(applied).toEqual(["evt_body_1"]);
  });
});
