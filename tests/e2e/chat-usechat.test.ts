/**
 * Issue 20's promise, in Chromium: an integrator points an unmodified AI SDK v5 `useChat` (from `@ai-sdk/react`)
 * at `/api/chat/v5` with an API key and has a conversation about their workspace. The integrator's app is a React
 * page (tests/e2e/chat-app/app.tsx, bundled here with esbuild) served from another origin, so every request is a
 * real cross-origin one — preflight included — and every answer is parsed by the SDK's own stream reader. The
 * demo workspace (Harbor Bakery) is what it talks about — its opening hours, its bookings, a page that answers and
 * a customer's last order, in one conversation, then the last answer regenerated — and a revoked key shows useChat's
 * error. The server runs on the real clock, so the bookings are asked for as "upcoming" and checked against what the
 * demo booked. Screenshots at 1280 and 390 pixels go to SHOTS_DIR, else test-results/screenshots.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Locator, Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeysOf } from "~/modules/api-keys/api-keys.server";
import { browserSuite, SCREENSHOT_DIR } from "../helpers/browser";
import { chatKey } from "../helpers/chat";
import { tempDir, type TempDir } from "../helpers/temp";

const suite = browserSuite({ env: { SEED_DEMO: "true" } });

const DEMO_EMAIL = "demo@atrium.test";
const WORKSPACE = "harbor-bakery";
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;
const SHOTS = process.env.SHOTS_DIR ?? SCREENSHOT_DIR;
const APP_SOURCE = fileURLToPath(new URL("./chat-app/app.tsx", import.meta.url));

let bundle: TempDir;
let integrator: Server;
/** The integrator's origin: http://127.0.0.1:<another port>. */
let appUrl: string;
/** The demo operator's API key the integrator's app uses. */
let liveKey: string;

/** The page an integrator writes around the bundle; the config (endpoint, key) is a JSON script tag. */
function html(config: { api: string; key: string; workspace: string }): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bakery assistant — an integrator's app</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f1ec; color: #222; }
  main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  .messages { list-style: none; padding: 0; margin: 0 0 1rem; display: grid; gap: .75rem; }
  .message { padding: .75rem 1rem; border-radius: .75rem; background: #fff; box-shadow: 0 1px 2px #0002; }
  .message.user { background: #dbe8f5; margin-left: 3rem; }
  .message strong { display: block; font-size: .8rem; text-transform: uppercase; color: #555; }
  .text { white-space: pre-wrap; margin: .25rem 0; overflow-wrap: anywhere; }
  .source { font-size: .9rem; margin: .25rem 0; }
  .tool { display: inline-block; font: .8rem ui-monospace, monospace; background: #eee; border-radius: .25rem; padding: .1rem .4rem; }
  .error { color: #a00; background: #fee; padding: .75rem 1rem; border-radius: .5rem; overflow-wrap: anywhere; }
  form { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
  form input { flex: 1; min-width: 12rem; padding: .5rem; font: inherit; }
  form button { padding: .5rem 1rem; font: inherit; }
  .status { font-size: .8rem; color: #666; }
</style>
</head>
<body>
<div id="root"></div>
<script type="application/json" id="config">${json}</script>
<script type="module" src="/app.js"></script>
</body>
</html>`;
}

beforeAll(async () => {
  bundle = tempDir("atrium-chat-app");
  await build({
    entryPoints: [APP_SOURCE],
    outfile: join(bundle.path, "app.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    minify: true,
    logLevel: "silent",
  });
  const script = readFileSync(join(bundle.path, "app.js"));

  const server = suite.server;
  const user = await server.db
    .selectFrom("users")
    .select(["id", "tier"])
    .where("email", "=", DEMO_EMAIL)
    .executeTakeFirstOrThrow();
  liveKey = await chatKey(server.db, DEMO_EMAIL);
  const revoked = await apiKeysOf(server.db, user).generate({
    name: "revoked",
    environment: "live",
    expiresInDays: null,
    workspaceId: null,
  });
  await apiKeysOf(server.db, user).revoke(revoked.view.id);
  const api = `${server.url}/api/chat/v5`;
  const pages: Record<string, string> = {
    "/": html({ api, key: liveKey, workspace: WORKSPACE }),
    "/revoked": html({ api, key: revoked.key, workspace: WORKSPACE }),
  };

  integrator = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://app").pathname;
    if (path === "/app.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(script);
    } else if (pages[path]) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pages[path]);
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  expect(new URL(appUrl).origin).not.toBe(new URL(server.url).origin);
});

afterAll(async () => {
  if (integrator) {
    const closed = new Promise<void>((resolve) => integrator.close(() => resolve()));
    // The browser is still open (its hooks run after these) and keeps its connections alive: close them too.
    integrator.closeAllConnections();
    await closed;
  }
  bundle?.remove();
});

/** Types `question`, sends it, and waits for the `n`th answer to finish streaming (useChat's status back to ready). */
async function ask(page: Page, question: string, n: number): Promise<Locator> {
  await page.getByLabel("Question").fill(question);
  await page.getByRole("button", { name: "Send" }).click();
  const answer = page.locator('li[data-role="assistant"]').nth(n - 1);
  await answer.waitFor();
  await page.locator('main[data-status="ready"]').waitFor();
  return answer;
}

async function screenshots(page: Page, name: string) {
  for (const width of ["wide", "narrow"] as const) {
    await page.setViewportSize(WIDTHS[width]);
    await page.screenshot({ path: join(SHOTS, `chat-usechat-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

describe("useChat from another origin against /api/chat/v5", () => {
  it("has a conversation about the workspace: opening hours, upcoming bookings, a page found and cited, an order", async () => {
    const server = suite.server;
    const page = await suite.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    const problems: string[] = [];
    page.on("console", (m) => void (m.type() === "error" && problems.push(m.text())));
    page.on("pageerror", (e) => problems.push(e.message));
    const posts: Request[] = [];
    page.on("request", (r) => void (r.url() === `${server.url}/api/chat/v5` && r.method() === "POST" && posts.push(r)));

    await page.goto(appUrl);
    await page.getByRole("heading", { name: "Ask Harbor Bakery" }).waitFor();

    // 1. Opening hours, from the business profile, citing the contact page.
    const hours = await ask(page, "What are your opening hours?", 1);
    const hoursText = (await hours.locator("p.text").allInnerTexts()).join("\n");
    expect(hoursText).toContain("Monday: Closed; Tuesday – Thursday: 7:30–17:00; Friday: 7:30–18:00");
    expect(hoursText).toContain("Saturday: 8:00–12:30, 13:30–16:00; Sunday: 9:00–13:00");
    await hours.locator(`a[href="${server.url}/${WORKSPACE}/contact"]`).waitFor();
    await hours.locator('.tool[data-tool="search_content"][data-state="output-available"]').waitFor();

    // 2. In the same conversation: the upcoming bookings (the demo booked the next free consultations, a day or
    // more ahead of its start, so within the next seven days whatever today is).
    const bookings = await ask(page, "Show upcoming bookings", 2);
    await bookings.locator('.tool[data-tool="bookings_in_period"][data-state="output-available"]').waitFor();
    const booked = await server.db
      .selectFrom("bookings")
      .innerJoin("workspaces", "workspaces.id", "bookings.workspace_id")
      .select(["bookings.name"])
      .where("workspaces.slug", "=", WORKSPACE)
      .where("bookings.status", "!=", "cancelled")
      .execute();
    expect(booked.length).toBeGreaterThan(0);
    const bookingsText = (await bookings.locator("p.text").allInnerTexts()).join("\n");
    expect(bookingsText).toMatch(
      new RegExp(`^${booked.length} booking${booked.length === 1 ? "" : "s"} in the next 7 days \\(`),
    );
    for (const { name } of booked) expect(bookingsText).toContain(`Celebration cake consultation with ${name}`);

    // 3. A question the home page's FAQ answers: quoted, and the home page cited.
    const glutenFree = await ask(page, "Do you bake anything gluten-free?", 3);
    const glutenText = (await glutenFree.locator("p.text").allInnerTexts()).join("\n");
    expect(glutenText).toContain("Our almond and orange cake is gluten-free");
    expect(glutenText).toContain("(from “Home”)");
    await glutenFree.locator(`a[href="${server.url}/${WORKSPACE}"]`).waitFor();

    // 4. A customer's last order: the demo's one order, waiting to be paid at pickup.
    const order = await ask(page, "What was Mira Okafor's last order?", 4);
    await order.locator('.tool[data-tool="find_orders"][data-state="output-available"]').waitFor();
    const orderText = (await order.locator("p.text").allInnerTexts()).join("\n");
    expect(orderText).toMatch(
      /^The last order of “Mira Okafor”:\n- Order #\d+ — Mira Okafor — £24\.00 — Awaiting payment — /,
    );
    expect(orderText).toContain("1 × Butter croissants (Box of 6), 2 × Country sourdough");

    // useChat's regenerate(): the last answer asked again, replacing the first one.
    const lastAnswer = page.locator('li[data-role="assistant"]').last();
    const firstTry = await lastAnswer.getAttribute("data-id");
    await page.getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => lastAnswer.getAttribute("data-id")).not.toBe(firstTry);
    await page.locator('main[data-status="ready"]').waitFor();
    expect((await lastAnswer.locator("p.text").allInnerTexts()).join("\n")).toBe(orderText);

    // One conversation: four questions, four answers, no error, nothing in the console.
    expect(await page.locator('li[data-role="user"]').count()).toBe(4);
    expect(await page.locator('li[data-role="assistant"]').count()).toBe(4);
    expect(await page.locator("main").getAttribute("data-error")).toBe("undefined");
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(problems).toEqual([]);
    // Cross-origin for real: the browser asked first (a preflight, which Chromium then caches for its max-age), then
    // posted each question (and the regeneration) naming the integrator's origin.
    expect(await Promise.all(posts.map((r) => r.headerValue("origin")))).toEqual(Array(5).fill(appUrl));
    const preflights = server.logs.filter(
      (l) =>
        (l.req as { method?: string; path?: string } | undefined)?.method === "OPTIONS" && l.route === "/api/chat/v5",
    );
    expect(preflights.length).toBeGreaterThan(0);
    for (const l of preflights) expect((l.res as { statusCode: number }).statusCode).toBe(204);

    // The conversation is the server's too, under useChat's id and its messages' ids: an app that reloads can
    // hand what GET answers back to useChat as its `messages`.
    const chatId = await page.locator("main").getAttribute("data-chat-id");
    const held = await page
      .locator("li[data-id]")
      .evaluateAll((items) => items.map((li) => li.getAttribute("data-id")));
    const stored = await fetch(`${server.url}/api/chat/v5/${chatId}?workspace=${WORKSPACE}`, {
      headers: { authorization: `Bearer ${liveKey}` },
    });
    expect(stored.status).toBe(200);
    const conversation = (await stored.json()) as { messages: { id: string; role: string }[] };
    expect(conversation.messages.map((m) => m.id)).toEqual(held);

    await screenshots(page, "conversation");
    await page.close();
  });

  it("shows useChat's error when the key was revoked: 401 before any stream", async () => {
    const page = await suite.context.newPage();
    await page.setViewportSize(WIDTHS.wide);
    const responses: number[] = [];
    page.on("response", (r) => {
      if (r.url() === `${suite.server.url}/api/chat/v5` && r.request().method() === "POST") responses.push(r.status());
    });
    await page.goto(`${appUrl}/revoked`);
    await page.getByLabel("Question").fill("What are your opening hours?");
    await page.getByRole("button", { name: "Send" }).click();
    const alert = page.getByRole("alert");
    await alert.waitFor();
    await page.locator('main[data-status="error"]').waitFor();
    // The transport shows the body of a non-2xx answer as the error's message: the error contract's JSON.
    expect(JSON.parse(await alert.innerText())).toEqual({
      error: "Unauthorized",
      message: "Invalid or missing API key",
      statusCode: 401,
    });
    expect(responses).toEqual([401]);
    expect(await page.locator('li[data-role="assistant"]').count()).toBe(0);
    await screenshots(page, "revoked-key");
    await page.close();
  });
});
