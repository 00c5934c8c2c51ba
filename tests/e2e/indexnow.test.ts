/**
 * /discovery/indexnow in Chromium (ADR 022): off with its empty state, turned on (a key and its key file),
 * submissions after publishing — one sent, one refused with its meaning — and a new key after confirming;
 * axe at 1280 and 390 wide in each state. Screenshots go to SHOTS_DIR when it is set (the reviewer's folder).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite } from "../helpers/browser";
import { type Client, createWorkspace, signUp } from "../helpers/client";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const SHOTS = process.env.SHOTS_DIR;
const WIDTHS = { wide: { width: 1280, height: 900 }, narrow: { width: 390, height: 844 } } as const;
const SITE = "indexnow-bakery";

let endpoint: Server;
let endpointPort = 0;
const answers: number[] = [];
beforeAll(async () => {
  endpoint = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(answers.shift() ?? 200).end());
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  endpointPort = (endpoint.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => endpoint.close(() => resolve())));

// The endpoint's port is known only once it listens, so the suite's env reads it lazily through a getter.
const env: Record<string, string> = {
  PUBLIC_URL: "https://atrium.example",
  OUTBOUND_ALLOW_PRIVATE: "true",
  JOBS_POLL_MS: "50",
};
Object.defineProperty(env, "INDEXNOW_ENDPOINT", {
  enumerable: true,
  get: () => `http://127.0.0.1:${endpointPort}/indexnow`,
});
// axe is injected as a script tag, which the console's CSP would refuse.
const suite = browserSuite({ env, bypassCSP: true });

let page: Page;
let client: Client;

async function check(name: string) {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page, AXE), `${name} at ${label}`).toEqual([]);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: join(SHOTS, `indexnow-${name}-${label}.png`), fullPage: true });
    }
  }
  await page.setViewportSize(WIDTHS.wide);
}

async function publish(title: string, slug: string) {
  const headers = { origin: new URL(suite.server.url).origin, "content-type": "application/json" };
  const created = await client.request("/api/editor/pages", {
    method: "POST",
    body: JSON.stringify({ title, slug }),
    headers,
  });
  const { id } = (await created.json()) as { id: string };
  const published = await client.request(`/api/editor/pages/${id}/publish`, { method: "POST", headers });
  expect(published.status).toBe(200);
}

describe("IndexNow in the console", () => {
  it("is off with an empty state", async () => {
    const signed = await signUp(suite.server.url);
    client = signed.client;
    await createWorkspace(client, "Indexnow Bakery", SITE);
    await publish("Welcome", "welcome");
    const url = new URL(suite.server.url);
    await suite.context.addCookies([
      { name: "atrium_session", value: client.cookie("atrium_session")!, domain: url.hostname, path: "/" },
    ]);
    page = await suite.context.newPage();
    await page.goto(`${suite.server.url}/discovery/indexnow`);
    await page.getByRole("heading", { level: 1, name: "Discovery" }).waitFor();
    expect(
      await page
        .getByRole("navigation", { name: "Discovery" })
        .getByRole("link", { name: "IndexNow" })
        .getAttribute("aria-current"),
    ).toBe("page");
    await page.getByText("Nothing submitted yet. Turn IndexNow on, then publish a page.").waitFor();
    await check("off");
  });

  it("turns on with a key and its key file, and lists what publishing sent", async () => {
    await page.getByRole("button", { name: "Turn on IndexNow" }).click();
    await page.getByText("IndexNow is on").waitFor();
    const key = (await page.getByTestId("indexnow-key").textContent()) ?? "";
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    await page.getByRole("link", { name: `https://atrium.example/${SITE}/indexnow` }).waitFor();
    const file = await fetch(`${suite.server.url}/${SITE}/indexnow`);
    expect(await file.text()).toBe(key);

    await publish("About us", "about");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('tr[data-status="sent"]').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    answers.push(422);
    await publish("Our bread", "bread");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator('tr[data-status="failed"]').count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(1);
    const failed = page.locator('tr[data-status="failed"]');
    expect(await failed.textContent()).toContain("Unprocessable (422)");
    await failed.getByText("1 page").click();
    await failed.getByText(`https://atrium.example/${SITE}/bread`).waitFor();
    await check("on");
  });

  it("generates a new key after confirming", async () => {
    const before = (await page.getByTestId("indexnow-key").textContent()) ?? "";
    // Hydrated, so the confirmation is asked (without JavaScript the post goes straight through).
    await page.waitForLoadState("networkidle");
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.getByRole("button", { name: "Generate a new key" }).click();
    await page.reload();
    expect(await page.getByTestId("indexnow-key").textContent()).toBe(before);
    await page.waitForLoadState("networkidle");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Generate a new key" }).click();
    await page.getByText("A new key is in place").waitFor();
    await expect.poll(() => page.getByTestId("indexnow-key").textContent()).not.toBe(before);
    const after = (await page.getByTestId("indexnow-key").textContent()) ?? "";
    expect(after).toMatch(/^[0-9a-f]{32}$/);
    expect(await (await fetch(`${suite.server.url}/${SITE}/indexnow`)).text()).toBe(after);
    await check("new-key");
  });

  it("draws the site's share image (kept for the reviewer)", async () => {
    const res = await fetch(
      `${suite.server.url}/${SITE}/og-image?title=${encodeURIComponent("Fresh sourdough every morning")}`,
    );
    expect(res.status).toBe(200);
    if (SHOTS) writeFileSync(join(SHOTS, "og-image.png"), Buffer.from(await res.arrayBuffer()));
  });
});
