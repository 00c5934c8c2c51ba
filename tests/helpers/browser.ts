/** Debian's Chromium driven by playwright-core: never a browser download, always a fresh profile. */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";
import { linkIn, mailedText } from "./client";
import { startServer, type TestServer } from "./server";
import { tempDir } from "./temp";

/** Where a failed browser test leaves a screenshot of each page it had open (git-ignored; named in the README). */
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../test-results/screenshots/", import.meta.url));

export async function openBrowser(
  options: {
    bypassCSP?: boolean;
    javaScriptEnabled?: boolean;
    /** More Chromium switches for one test file (e.g. `--host-resolver-rules` for a custom domain). */
    args?: string[];
  } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = tempDir("atrium-chromium");
  const context = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    bypassCSP: options.bypassCSP ?? false,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  return {
    context,
    close: async () => {
      await context.close();
      profile.remove();
    },
  };
}

/**
 * The hooks every browser test file needs: a server with a fresh database, a browser with a fresh profile,
 * and — when a test fails — what each page showed and the server's last log lines (a timeout alone explains
 * nothing). Call at the top of a test file; read `suite.server` / `suite.context` inside tests.
 */
export function browserSuite(
  options: {
    permissions?: string[];
    bypassCSP?: boolean;
    /** false: the pages as a browser without JavaScript sees them — every console page must work so. */
    javaScriptEnabled?: boolean;
    env?: Record<string, string>;
    /** More Chromium switches (e.g. `--host-resolver-rules` for a custom domain). */
    args?: string[];
  } = {},
) {
  const suite = {} as { server: TestServer; context: BrowserContext; close(): Promise<void> };
  beforeAll(async () => {
    assertChromium();
    suite.server = await startServer(options.env);
    const browser = await openBrowser({
      bypassCSP: options.bypassCSP,
      javaScriptEnabled: options.javaScriptEnabled,
      args: options.args,
    });
    suite.context = browser.context;
    suite.close = browser.close;
    if (options.permissions) await suite.context.grantPermissions(options.permissions, { origin: suite.server.url });
  });
  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail") return;
    // Not the blank page a persistent context opens with.
    const pages = suite.context.pages().filter((page) => page.url() !== "about:blank");
    for (const [index, page] of pages.entries()) {
      const text = await page
        .locator("body")
        .innerText()
        .catch(() => "(no body)");
      const file = `${basename(task.file.name, ".test.ts")}--${task.name.replace(/[^\w-]+/g, "-")}--${index}.png`;
      const shot = await page
        .screenshot({ path: join(SCREENSHOT_DIR, file), fullPage: true })
        .then(() => join(SCREENSHOT_DIR, file))
        .catch(() => "(no screenshot)");
      console.error(`page at ${page.url()} (${shot}):\n${text.slice(0, 800)}`);
    }
    console.error(
      `last server log lines:\n${suite.server.logs
        .slice(-8)
        .map((l) => JSON.stringify(l))
        .join("\n")}`,
    );
  });
  afterAll(async () => {
    await suite.close?.();
    await suite.server?.close();
  });
  return suite;
}

/**
 * After the sign-up form was sent: follows the link the server e-mailed (ADR 004: sign-up finishes by e-mail),
 * as the operator would from their inbox, and creates the account.
 */
export async function finishSignUp(page: Page, server: TestServer, email: string): Promise<void> {
  await page.getByRole("heading", { name: "Check your email" }).waitFor();
  const link = linkIn(mailedText(server.url, email), "/signup/confirm");
  await page.goto(`${server.url}${link}`);
  await page.getByRole("button", { name: "Create my account" }).click();
}

/**
 * A new operator through the real pages: sign-up form, the e-mailed link, then a first workspace named `name`
 * at `/{slug}`; the page ends on its Get started checklist.
 */
export async function signUpWithWorkspace(
  page: Page,
  server: TestServer,
  account: { email: string; password: string; name: string; slug: string },
): Promise<void> {
  await page.goto(`${server.url}/signup`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await finishSignUp(page, server, account.email);
  await page.getByRole("heading", { name: "Your workspaces" }).waitFor();
  await page.getByLabel("Name").fill(account.name);
  await page.getByLabel("Site address").fill(account.slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: /Get started/ }).waitFor();
}
