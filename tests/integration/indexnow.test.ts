/**
 * IndexNow (ADR 022) over real HTTP, against a fake IndexNow endpoint on loopback (reached through the outbound
 * guard, which tests open to loopback with OUTBOUND_ALLOW_PRIVATE): the key file, the settings through the
 * editor API and the console's form, a publish received as the protocol's JSON, a burst of publishes sent as
 * one submission, unpublishing and the home page change submitted too, refusals shown in the console with
 * their meaning, 429 retried, nothing sent while off, another workspace's submissions invisible, and a site
 * without a public address recorded as skipped.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Client, addMember, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

interface Received {
  contentType: string | undefined;
  body: { host: string; key: string; keyLocation: string; urlList: string[] };
}

const PUBLIC_URL = "https://atrium.example";
let endpoint: Server;
let endpointUrl: string;
let received: Received[] = [];
/** The statuses the fake answers with, in turn; 200 once they run out. */
let answers: number[] = [];

let server: TestServer;
let owner: Client;
let viewer: Client;
let other: Client;
const SITE = `inx-${Math.random().toString(36).slice(2, 7)}`;
const OTHER_SITE = `inx-other-${Math.random().toString(36).slice(2, 7)}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

beforeAll(async () => {
  endpoint = createServer((req, res) => {
    void readBody(req).then((text) => {
      if (req.method === "POST" && req.url === "/indexnow") {
        received.push({ contentType: req.headers["content-type"], body: JSON.parse(text) as Received["body"] });
      }
      res.writeHead(answers.shift() ?? 200, { "content-type": "text/plain" }).end();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/indexnow`;
  server = await startServer({
    PUBLIC_URL,
    INDEXNOW_ENDPOINT: endpointUrl,
    OUTBOUND_ALLOW_PRIVATE: "true",
    JOBS_POLL_MS: "50",
    JOBS_RETRY_BASE_MS: "50",
  });
  owner = (await signUp(server.url)).client;
  await createWorkspace(owner, "Harbor Bakery", SITE);
  const v = await signUp(server.url);
  viewer = v.client;
  await addMember(server.url, owner, v, "viewer");
  const { id } = await server.db
    .selectFrom("workspaces")
    .select("id")
    .where("slug", "=", SITE)
    .executeTakeFirstOrThrow();
  expect((await call(viewer, "POST", "/api/editor/session", { workspaceId: id })).status).toBe(200);
  other = (await signUp(server.url)).client;
  await createWorkspace(other, "Other Bakery", OTHER_SITE);
  // The first page is the home page (the site's own address); later ones have theirs.
  await newPublishedPage(owner, "Welcome", "welcome");
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => endpoint.close(() => resolve()));
});
beforeEach(() => {
  received = [];
  answers = [];
});

async function call(client: Client, method: string, path: string, body?: unknown) {
  const res = await client.request(path, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      origin: new URL(server.url).origin,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

interface Settings {
  enabled: boolean;
  key: string | null;
  keyUrl: string | null;
  submissionsSkipped: boolean;
  submissions: {
    items: { status: string; urls: string[]; responseStatus: number | null; error: string | null }[];
    total: number;
  };
}
const settings = async (client = owner) =>
  (await call(client, "GET", "/api/editor/discovery/seo/indexnow")).body as unknown as Settings;

async function newPublishedPage(client: Client, title: string, slug: string): Promise<string> {
  const created = await call(client, "POST", "/api/editor/pages", { title, slug });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body!.id as string;
  expect((await call(client, "POST", `/api/editor/pages/${id}/publish`)).status).toBe(200);
  return id;
}

/** Waits until the workspace has no submission still waiting or being sent (the job has run its course). */
async function settled(client = owner): Promise<Settings["submissions"]["items"]> {
  await expect
    .poll(
      async () =>
        (await settings(client)).submissions.items.filter((s) => s.status === "queued" || s.status === "sending")
          .length,
      {
        timeout: 20_000,
        interval: 100,
      },
    )
    .toBe(0);
  return (await settings(client)).submissions.items;
}

describe("IndexNow settings and the key file", () => {
  it("has no key file while off; turning it on makes a 32-hex key served as UTF-8 text", async () => {
    expect((await settings()).enabled).toBe(false);
    expect((await new Client(server.url).get(`/${SITE}/indexnow`)).status).toBe(404);

    const on = await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: true });
    expect(on.status).toBe(200);
    const key = on.body!.key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(on.body!.keyUrl).toBe(`${PUBLIC_URL}/${SITE}/indexnow`);
    expect(on.body!.submissionsSkipped).toBe(false);

    const file = await new Client(server.url).get(`/${SITE}/indexnow`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await file.text()).toBe(key);
  });

  it("replaces the key on request (the old one stops answering) and keeps it across off and on", async () => {
    const before = (await settings()).key!;
    const replaced = await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", {
      enabled: true,
      regenerateKey: true,
    });
    const key = replaced.body!.key as string;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toBe(before);
    expect(await (await new Client(server.url).get(`/${SITE}/indexnow`)).text()).toBe(key);

    expect((await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: false })).status).toBe(200);
    expect((await new Client(server.url).get(`/${SITE}/indexnow`)).status).toBe(404);
    const again = await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: true });
    expect(again.body!.key).toBe(key);
  });

  it("refuses a viewer (403) and a malformed body (400 with issues), changing nothing", async () => {
    const before = await settings();
    const denied = await call(viewer, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: false });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ error: expect.any(String), statusCode: 403 });
    const bad = await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, issues: [expect.objectContaining({ field: "enabled" })] });
    const after = await settings();
    expect({ enabled: after.enabled, key: after.key }).toEqual({ enabled: before.enabled, key: before.key });
    // The viewer reads it.
    expect((await settings(viewer)).key).toBe(before.key);
  });
});

describe("the console's form", () => {
  it("turns IndexNow off and on without JavaScript; a viewer and an unknown action are refused", async () => {
    const { key } = await settings();
    const denied = await viewer.post("/discovery/indexnow", { intent: "disable" });
    expect(denied.status).toBe(403);
    const unknown = await owner.post("/discovery/indexnow", { intent: "explode" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Unknown action");
    expect((await settings()).enabled).toBe(true);

    const off = await owner.post("/discovery/indexnow", { intent: "disable" });
    expect(off.status).toBe(200);
    expect(await off.text()).toContain("IndexNow is off: nothing more is submitted.");
    expect((await settings()).enabled).toBe(false);
    const on = await owner.post("/discovery/indexnow", { intent: "enable" });
    expect(await on.text()).toContain(key!);
    expect(await settings()).toMatchObject({ enabled: true, key });
  });
});

describe("submissions", () => {
  it("sends a published page to the endpoint as the protocol's JSON, at the site's public address", async () => {
    const { key } = await settings();
    await newPublishedPage(owner, "About us", "about");
    const [latest] = await settled();
    expect(latest).toMatchObject({ status: "sent", responseStatus: 200, urls: [`${PUBLIC_URL}/${SITE}/about`] });
    expect(received).toHaveLength(1);
    expect(received[0]!.contentType).toMatch(/^application\/json/);
    expect(received[0]!.body).toEqual({
      host: "atrium.example",
      key,
      keyLocation: `${PUBLIC_URL}/${SITE}/indexnow`,
      urlList: [`${PUBLIC_URL}/${SITE}/about`],
    });
  });

  it("sends a burst of publishes as one submission", async () => {
    const before = (await settings()).submissions.total;
    await newPublishedPage(owner, "Bread", "bread");
    await newPublishedPage(owner, "Cakes", "cakes");
    const [latest] = await settled();
    expect((await settings()).submissions.total).toBe(before + 1);
    expect(received).toHaveLength(1);
    expect(received[0]!.body.urlList.sort()).toEqual([`${PUBLIC_URL}/${SITE}/bread`, `${PUBLIC_URL}/${SITE}/cakes`]);
    expect(latest!.status).toBe("sent");
  });

  it("submits an unpublished page and a home page change", async () => {
    const pages = (await call(owner, "GET", "/api/editor/pages")).body!.pages as {
      id: string;
      slug: string;
      isHome: boolean;
    }[];
    const bread = pages.find((p) => p.slug === "bread")!;
    const home = pages.find((p) => p.isHome)!;
    expect((await call(owner, "POST", `/api/editor/pages/${bread.id}/unpublish`)).status).toBe(200);
    await settled();
    expect(received.at(-1)!.body.urlList).toEqual([`${PUBLIC_URL}/${SITE}/bread`]);

    const cakes = pages.find((p) => p.slug === "cakes")!;
    expect((await call(owner, "POST", `/api/editor/pages/${cakes.id}/home`)).status).toBe(200);
    await settled();
    expect(received.at(-1)!.body.urlList.sort()).toEqual(
      [`${PUBLIC_URL}/${SITE}`, `${PUBLIC_URL}/${SITE}/cakes`, `${PUBLIC_URL}/${SITE}/${home.slug}`].sort(),
    );
  });

  it.each([
    [422, "Unprocessable (422)"],
    [403, "Forbidden (403)"],
    [400, "Bad request (400)"],
  ])("records a %i as failed, with its meaning in the console", async (status, meaning) => {
    answers = [status];
    await newPublishedPage(owner, `Refused ${status}`, `refused-${status}`);
    const [latest] = await settled();
    expect(latest).toMatchObject({ status: "failed", responseStatus: status });
    expect(latest!.error).toContain(meaning);
    expect(received).toHaveLength(1);
    const html = await (await owner.get("/discovery/indexnow")).text();
    expect(html).toMatch(new RegExp(`data-status="failed"[\\s\\S]*?<strong>${status}</strong>`));
    expect(html).toContain(meaning);
  });

  it("retries a 429 and a 503 with backoff, then sends", async () => {
    answers = [429, 503];
    await newPublishedPage(owner, "Retried", "retried");
    const [latest] = await settled();
    expect(latest).toMatchObject({ status: "sent", responseStatus: 200, error: null });
    expect(received).toHaveLength(3);
    expect(received[2]!.body.urlList).toEqual([`${PUBLIC_URL}/${SITE}/retried`]);
  });

  it("skips a protected site's submission, with the reason, and sends nothing", async () => {
    expect((await owner.post("/settings/site", { visibility: "protected", password: "correct horse" })).status).toBe(
      200,
    );
    try {
      await newPublishedPage(owner, "Smith wedding gallery", "smith-wedding-gallery");
      const [latest] = await settled();
      expect(latest).toMatchObject({
        status: "skipped",
        error: "the site is protected by a password: its pages are not sent to search engines",
      });
      expect(received).toHaveLength(0);
    } finally {
      expect((await owner.post("/settings/site", { visibility: "public" })).status).toBe(200);
    }
  });

  it("skips a site hidden from search engines, with the reason, and sends nothing", async () => {
    expect((await call(owner, "PUT", "/api/editor/discovery/seo", { noindex: true })).status).toBe(200);
    try {
      await newPublishedPage(owner, "Hidden", "hidden");
      const [latest] = await settled();
      expect(latest).toMatchObject({
        status: "skipped",
        error: "the site is hidden from search engines (Search appearance)",
      });
      expect(received).toHaveLength(0);
    } finally {
      expect((await call(owner, "PUT", "/api/editor/discovery/seo", { noindex: false })).status).toBe(200);
    }
  });

  it("leaves out pages that are noindex or whose canonical address is another page's", async () => {
    const draft = async (title: string, slug: string, seo: Record<string, unknown>) => {
      const created = await call(owner, "POST", "/api/editor/pages", { title, slug });
      const id = created.body!.id as string;
      const saved = await call(owner, "PUT", `/api/editor/discovery/seo/pages/${id}`, seo);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      return id;
    };
    const secret = await draft("Staff rota", "staff-rota", { noindex: true });
    const copy = await draft("About (print)", "about-print", { canonical: "/about" });
    const itself = await draft("Menu", "menu", { canonical: `${PUBLIC_URL}/${SITE}/menu` });
    for (const id of [secret, copy, itself]) {
      expect((await call(owner, "POST", `/api/editor/pages/${id}/publish`)).status).toBe(200);
    }
    const [latest] = await settled();
    expect(latest).toMatchObject({ status: "sent", urls: [`${PUBLIC_URL}/${SITE}/menu`] });
    expect(received.map((r) => r.body.urlList)).toEqual([[`${PUBLIC_URL}/${SITE}/menu`]]);

    // Unpublishing the noindex page does not send its address either: nothing is left, so nothing is sent.
    expect((await call(owner, "POST", `/api/editor/pages/${secret}/unpublish`)).status).toBe(200);
    const [after] = await settled();
    expect(after).toMatchObject({
      status: "skipped",
      error: "its pages ask search engines not to index them, or name another page as their canonical address",
    });
    expect(received).toHaveLength(1);
  });

  it("queues nothing while IndexNow is off", async () => {
    await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: false });
    const before = (await settings()).submissions.total;
    await newPublishedPage(owner, "Quiet", "quiet");
    expect((await settings()).submissions.total).toBe(before);
    const jobs = await server.db
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", "discovery.indexnow-submit")
      .where("status", "=", "queued")
      .execute();
    expect(jobs).toHaveLength(0);
    await call(owner, "PUT", "/api/editor/discovery/seo/indexnow", { enabled: true });
  });

  it("keeps each workspace's settings and submissions to itself", async () => {
    const theirs = await settings(other);
    expect(theirs).toMatchObject({ enabled: false, key: null, submissions: { total: 0, items: [] } });
    await newPublishedPage(other, "Other page", "other-page");
    expect((await settings(other)).submissions.total).toBe(0);
    expect((await new Client(server.url).get(`/${OTHER_SITE}/indexnow`)).status).toBe(404);
  });
});

describe("a site without a public address", () => {
  let local: TestServer;
  afterAll(() => local?.close());

  it("records its submissions as skipped, with the reason", async () => {
    local = await startServer({ INDEXNOW_ENDPOINT: endpointUrl, OUTBOUND_ALLOW_PRIVATE: "true", JOBS_POLL_MS: "50" });
    const { client } = await signUp(local.url);
    await createWorkspace(client, "Local Bakery", "local-bakery");
    const localCall = async (method: string, path: string, body?: unknown) => {
      const res = await client.request(path, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: {
          origin: new URL(local.url).origin,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
      });
      return (await res.json()) as Record<string, unknown>;
    };
    const on = await localCall("PUT", "/api/editor/discovery/seo/indexnow", { enabled: true });
    expect(on.submissionsSkipped).toBe(true);
    const created = await localCall("POST", "/api/editor/pages", { title: "Hello", slug: "hello" });
    await localCall("POST", `/api/editor/pages/${created.id as string}/publish`);
    await expect
      .poll(
        async () =>
          ((await localCall("GET", "/api/editor/discovery/seo/indexnow")).submissions as Settings["submissions"])
            .items[0]?.status,
        { timeout: 20_000, interval: 100 },
      )
      .toBe("skipped");
    const items = (
      (await localCall("GET", "/api/editor/discovery/seo/indexnow")).submissions as Settings["submissions"]
    ).items;
    expect(items[0]!.error).toBe("the site has no public address yet: set PUBLIC_URL");
    expect(received).toHaveLength(0);
    const html = await (await client.get("/discovery/indexnow")).text();
    expect(html).toContain("the site has no public address yet: set PUBLIC_URL");
  });
});
