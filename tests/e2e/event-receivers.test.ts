/**
 * The Event receivers page in Chromium (issue 15, ADR 027): an admin finds it under Settings, creates a secret
 * (shown once: gone after a reload), a sender posts a signed event, the event shows in the log, and Replay
 * applies it again. axe at 1280 and 390 wide, with screenshots.
 */
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { signWebhook } from "~/modules/webhooks/standard-webhooks.server";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, signUpWithWorkspace } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";

const SHOTS = process.env.SHOTS_DIR;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 900 }, narrow: { width: 390, height: 844 } } as const;
const SLUG = `receivers-${process.pid}`;

const suite = browserSuite({ bypassCSP: true });
let page: Page;
let workspaceId: string;

beforeAll(async () => {
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  page = await suite.context.newPage();
  await signUpWithWorkspace(page, suite.server, {
    email: uniqueEmail("receivers-e2e"),
    password: "a long enough password",
    name: "Loaf & Ladle",
    slug: SLUG,
  });
  workspaceId = (
    await suite.server.db.selectFrom("workspaces").select("id").where("slug", "=", SLUG).executeTakeFirstOrThrow()
  ).id;
});

async function audit(name: string) {
  for (const [label, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    expect(await seriousViolations(page, AXE), `${name} (${label})`).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/event-receivers-${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize(WIDTHS.wide);
}

async function send(secret: string, tagline: string): Promise<number> {
  const body = JSON.stringify({ type: "settings.updated", workspace: workspaceId, data: { profile: { tagline } } });
  const id = `evt_${Math.random().toString(36).slice(2)}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${suite.server.url}/api/webhooks/settings?workspace=${workspaceId}`, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook(secret, id, timestamp, body),
    },
  });
  return res.status;
}

describe("the Event receivers page", () => {
  let secret = "";

  it("is in Settings, lists the families with their endpoints, and has an empty log", async () => {
    await page.goto(`${suite.server.url}/settings`);
    await page.getByRole("navigation").first().getByRole("link", { name: "Event receivers" }).click();
    await page.getByRole("heading", { name: "Event receivers", level: 1 }).waitFor();
    for (const family of ["branding", "settings", "pages", "media", "domains"]) {
      await page.getByRole("heading", { name: family, level: 3 }).waitFor();
    }
    await page.getByText(`/api/webhooks/settings?workspace=${workspaceId}`).waitFor();
    await page.getByText("No event yet.").waitFor();
    await audit("empty");
  });

  it("creates a secret and shows it once", async () => {
    await page.getByRole("button", { name: "Create secret for settings" }).click();
    const shown = page.getByTestId("new-webhook-secret");
    await shown.waitFor();
    secret = (await shown.innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByText("Copy it now: it will not be shown again.").waitFor();
    await audit("secret-shown");
    await page.reload();
    await page.getByRole("heading", { name: "Event receivers", level: 1 }).waitFor();
    expect(await page.getByTestId("new-webhook-secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    await page.getByText(`whsec_…${secret.slice(-4)}`).waitFor();
  });

  it("shows a received event and a refused one, and replays the applied one", async () => {
    expect(await send(secret, "Soup at noon")).toBe(200);
    expect(await send("whsec_" + Buffer.alloc(32, 9).toString("base64"), "Forged")).toBe(401);
    await page.reload();
    const log = page.getByRole("table");
    const applied = log.getByRole("row").filter({ hasText: "applied" });
    await applied.getByRole("button", { name: /^Replay/ }).waitFor();
    await log.getByText("Signature does not match any current secret").waitFor();
    // What was sent is one click away (a <details>, so without JavaScript too).
    await applied.getByText("Body").click();
    await applied
      .locator("pre")
      .getByText(/Soup at noon/)
      .waitFor();
    await audit("events");

    page.once("dialog", (dialog) => void dialog.accept());
    await log.getByRole("button", { name: /^Replay/ }).click();
    await page.getByText("Event replayed and applied again.").waitFor();
    await page.getByText("replayed 1×").waitFor();
    const site = await (await fetch(`${suite.server.url}/${SLUG}`)).text();
    expect(site).toContain("Soup at noon");
    await audit("replayed");
  });

  it("rotates with a confirmation and shows the old secret's expiry", async () => {
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Rotate secret of settings" }).click();
    await page.getByTestId("new-webhook-secret").waitFor();
    await page.getByText(/Valid until/).waitFor();
    await audit("rotated");
  });
});
