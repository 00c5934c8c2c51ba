/**
 * The media library in Chromium: an operator uploads a photo, describes it, replaces it and deletes it, and
 * the page has no serious axe violation at 1280 and 390 wide, empty and full. The same upload works with
 * JavaScript turned off (a plain multipart form post), errors beside the field included.
 */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../helpers/axe";
import { browserSuite, finishSignUp, openBrowser } from "../helpers/browser";
import { uniqueEmail } from "../helpers/client";
import { png } from "../helpers/files";
import { tempDir } from "../helpers/temp";

const files = tempDir("media-e2e");
const suite = browserSuite({ bypassCSP: true, env: { FILES_DIR: files.path } });
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const WIDTHS = { wide: { width: 1280, height: 800 }, narrow: { width: 390, height: 844 } } as const;

let page: Page;
let email = "";

async function axeAtBothWidths(p: Page) {
  for (const size of Object.values(WIDTHS)) {
    await p.setViewportSize(size);
    expect(await seriousViolations(p, AXE)).toEqual([]);
  }
  await p.setViewportSize(WIDTHS.wide);
}

beforeAll(async () => {
  page = await suite.context.newPage();
  email = uniqueEmail("media");
  await page.goto(`${suite.server.url}/signup`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, suite.server, email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await page.getByLabel("Name").fill("Harbour Rolls");
  await page.getByLabel("Site address").fill("harbour-rolls");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
});

afterAll(() => files.remove());

describe("the media library in Chromium", () => {
  it("uploads, describes, replaces and deletes a photo", async () => {
    await page.getByRole("navigation", { name: "Console" }).first().getByRole("link", { name: "Media" }).click();
    await page.getByRole("heading", { level: 1, name: "Media" }).waitFor();
    await page.getByText("No files yet.").waitFor();
    await axeAtBothWidths(page);

    await page.getByLabel("Image").setInputFiles({
      name: "morning-bake.png",
      mimeType: "image/png",
      buffer: Buffer.from(await png(1200, 800, [180, 110, 50])),
    });
    await page.getByLabel("Description (optional)").fill("The morning bake");
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByText("Uploaded. Describe the image below").waitFor();
    await page.getByRole("heading", { level: 2, name: "morning-bake.png" }).waitFor();
    // The preview is served by the site's media route: it loads (CSP and caching allow it).
    const preview = page.locator(".media-preview img");
    await expect
      .poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await preview.getAttribute("alt")).toBe("The morning bake");
    await axeAtBothWidths(page);

    await page.getByLabel("Description (alt text)").fill("Loaves from the first bake of the day");
    await page.getByRole("button", { name: "Save description" }).click();
    await page.getByText("Description saved.").waitFor();

    await page.getByLabel("Replace with another file").setInputFiles({
      name: "second-bake.png",
      mimeType: "image/png",
      buffer: Buffer.from(await png(900, 900, [90, 60, 30])),
    });
    await page.getByRole("button", { name: "Replace file" }).click();
    await page.getByText("File replaced").waitFor();
    await page.getByRole("heading", { level: 2, name: "second-bake.png" }).waitFor();
    expect(await page.getByLabel("Description (alt text)").inputValue()).toBe("Loaves from the first bake of the day");

    await page.getByRole("link", { name: "Delete file second-bake.png…" }).click();
    await page.getByRole("heading", { level: 3, name: "Delete “second-bake.png”?" }).waitFor();
    await axeAtBothWidths(page);
    await page.getByRole("link", { name: "Keep it" }).click();
    await page.getByRole("link", { name: "Delete file second-bake.png…" }).click();
    await page.getByRole("button", { name: "Yes, delete this file" }).click();
    await page.getByText("File deleted.").waitFor();
    await page.getByText("No files yet.").waitFor();
  });

  it("works without JavaScript, refusals beside the file field", async () => {
    const browser = await openBrowser({ javaScriptEnabled: false });
    try {
      const cookies = await suite.context.cookies(suite.server.url);
      await browser.context.addCookies(cookies);
      const plain = await browser.context.newPage();
      await plain.goto(`${suite.server.url}/website/media`);
      await plain.getByLabel("Image").setInputFiles({
        name: "notes.png",
        mimeType: "image/png",
        buffer: Buffer.from("these are not pixels"),
      });
      await plain.getByRole("button", { name: "Upload" }).click();
      await plain.locator("#media-file-error").getByText("This file is not an image we can show").waitFor();
      expect(await plain.getByLabel("Image").getAttribute("aria-invalid")).toBe("true");

      await plain.getByLabel("Image").setInputFiles({
        name: "counter.png",
        mimeType: "image/png",
        buffer: Buffer.from(await png(640, 480, [20, 90, 120])),
      });
      await plain.getByRole("button", { name: "Upload" }).click();
      await plain.getByRole("heading", { level: 2, name: "counter.png" }).waitFor();
      await plain.getByText("1 file", { exact: false }).first().waitFor();

      // Deleting asks first without JavaScript too: a page with the question, then the post.
      await plain.getByRole("link", { name: "Delete file counter.png…" }).click();
      await plain.getByRole("heading", { level: 3, name: "Delete “counter.png”?" }).waitFor();
      await plain.getByRole("button", { name: "Yes, delete this file" }).click();
      await plain.getByText("File deleted.").waitFor();
      await plain.getByText("No files yet.").waitFor();
    } finally {
      await browser.close();
    }
  });
});
