/**
 * The shell's own pages (picker, offline) in a real Chromium, served exactly as app://shell serves them (same
 * handler, same CSP), with the preload's bridge replaced by an in-page stand-in that records each call.
 * Debian's Chromium, as for the server's browser tests: a missing browser fails the run, it does not skip.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The repository's one Chromium launch recipe (it imports nothing, so this package needs none of the server's).
import { assertChromium, CHROMIUM_ARGS, CHROMIUM_PATH } from "../../tests/helpers/chromium";
import { seriousViolations } from "../../tests/helpers/axe";
import { tempDir, type TempDir } from "../../tests/helpers/temp";
import { shellAssetResponse } from "../src/main/app-protocol";

const root = join(dirname(new URL(import.meta.url).pathname), "..");
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

let server: Server;
let base: string;
let context: BrowserContext;
let profile: TempDir | undefined;

beforeAll(async () => {
  assertChromium();
  server = createServer(async (request, response) => {
    const answer = await shellAssetResponse(`app://shell${request.url}`, join(root, "dist/renderer"));
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = tempDir("atrium-desktop-chromium");
  context = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  server?.close();
  profile?.remove();
});

interface BridgeOptions {
  notice?: string | null;
  existing?: readonly string[];
}
/** What the stand-in bridge puts on the page: the API, and the calls made to it. */
type BridgedWindow = { atriumDesktop?: unknown; calls?: Array<[string, unknown]> };

/**
 * The bridge the preload would expose, backed by an in-memory list; every call is recorded in window.calls.
 * Playwright serialises this function into the page, so it uses nothing from outside itself.
 */
function installBridge(init: BridgeOptions) {
  const calls: Array<[string, unknown]> = [];
  let deployments = (init.existing ?? []).map((name, index) => ({
    id: `d${index}`,
    name,
    origin: `https://${name.toLowerCase().replace(/\W+/g, "-")}.example.com`,
    addedAt: "2026-11-01T10:00:00.000Z",
    lastOpenedAt: null,
    version: "0.1.0",
  }));
  let notice = init.notice ?? null;
  const record = (name: string, value: unknown) => calls.push([name, value]);
  (window as BridgedWindow).calls = calls;
  (window as BridgedWindow).atriumDesktop = {
    appVersion: async () => "0.1.0",
    switchDeployment: async () => record("switchDeployment", null),
    notify: async () => {},
    retry: async () => {
      record("retry", null);
      return { ok: false, error: "Could not reach http://localhost:3000: ECONNREFUSED" };
    },
    pickerNotice: async () => {
      const value = notice;
      notice = null;
      return value;
    },
    deployments: {
      list: async () => [...deployments].sort((a, b) => a.name.localeCompare(b.name)),
      probe: async () => ({ ok: false, error: "unused" }),
      add: async (input: { name: string; url: string }) => {
        record("add", input);
        if (input.url.includes("not-atrium")) {
          return { ok: false, error: `${input.url} answered (HTTP 200), but not as an Atrium server.` };
        }
        const added = {
          id: `d${deployments.length + 1}`,
          name: input.name,
          origin: input.url,
          addedAt: "",
          lastOpenedAt: null,
          version: "0.1.0",
        };
        deployments.push(added);
        return { ok: true, value: added };
      },
      rename: async (input: { id: string; name: string }) => {
        record("rename", input);
        if (deployments.some((d) => d.id !== input.id && d.name.toLowerCase() === input.name.toLowerCase())) {
          return { ok: false, error: `A deployment is already named "${input.name}".` };
        }
        deployments = deployments.map((d) => (d.id === input.id ? { ...d, name: input.name } : d));
        return { ok: true, value: deployments.find((d) => d.id === input.id) };
      },
      remove: async (id: string) => {
        record("remove", id);
        deployments = deployments.filter((d) => d.id !== id);
        return { ok: true, value: null };
      },
      open: async (id: string) => {
        record("open", id);
        return { ok: true, value: null };
      },
    },
  };
}

async function openPage(path: string, options: BridgeOptions = {}, browser = context): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.addInitScript(installBridge, options);
  await page.goto(`${base}${path}`);
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}
const calls = (page: Page) => page.evaluate(() => (window as BridgedWindow).calls ?? []);

describe("deployment picker", () => {
  it("first run: an empty state, the address field focused, and clear refusals before anything is sent", async () => {
    const page = await openPage("/picker.html");
    await page.getByText("No deployments yet.").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("url");
    await page.getByRole("button", { name: "Check and save" }).click();
    await page.getByRole("alert").filter({ hasText: "Enter the address of an Atrium deployment." }).waitFor();
    await page.getByLabel("Address").fill("http://atrium.example.com");
    await page.getByRole("button", { name: "Check and save" }).click();
    await page.getByText("Plain http is only allowed for localhost, 127.0.0.1 and ::1.").waitFor();
    expect(await calls(page)).toEqual([]);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });

  it("saves a deployment (named after its address by default), lists it, and opens it", async () => {
    const page = await openPage("/picker.html");
    await page.getByLabel("Address").fill("localhost:3000/settings");
    await page.getByRole("button", { name: "Check and save" }).click();
    await page.getByText("Saved localhost:3000 (Atrium 0.1.0).").waitFor();
    expect(await page.getByText("http://localhost:3000 · Atrium 0.1.0 · never opened").count()).toBe(1);
    // Focus moves to the new deployment's Open button, so Enter opens it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Open localhost:3000");
    await page.keyboard.press("Enter");
    expect(await calls(page)).toEqual([
      ["add", { name: "localhost:3000", url: "http://localhost:3000" }],
      ["open", "d1"],
    ]);
    expect(await page.getByText("No deployments yet.").isVisible()).toBe(false);
    await page.close();
  });

  it("shows the main process's refusal when the address is not an Atrium server", async () => {
    const page = await openPage("/picker.html");
    await page.getByLabel("Address").fill("https://not-atrium.example.com");
    await page.getByLabel("Name").fill("Router");
    await page.getByRole("button", { name: "Check and save" }).click();
    await page.getByRole("alert").filter({ hasText: "but not as an Atrium server" }).waitFor();
    expect(await page.getByRole("listitem").count()).toBe(0);
    await page.close();
  });

  it("renames in place, shows a clash, and escapes names as text", async () => {
    const page = await openPage("/picker.html", { existing: ["Head office", "<img src=x onerror=alert(1)>"] });
    await page.getByRole("button", { name: "Rename Head office" }).click();
    const field = page.getByLabel("New name for Head office");
    await field.fill("<img src=x onerror=alert(1)>");
    await page.getByRole("button", { name: "Save name" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: 'A deployment is already named "<img src=x onerror=alert(1)>".' })
      .waitFor();
    await field.fill("Harbor Bakery");
    await field.press("Enter");
    await page.getByRole("button", { name: "Open Harbor Bakery" }).waitFor();
    expect(await page.locator("img").count()).toBe(0);
    await page.close();
  });

  it("asks before removing, and Keep keeps it", async () => {
    const page = await openPage("/picker.html", { existing: ["Head office"] });
    await page.getByRole("button", { name: "Remove Head office" }).click();
    await page.getByText("Remove Head office? Its sign-in and stored data on this computer are deleted.").waitFor();
    await page.getByRole("button", { name: "Keep" }).click();
    await page.getByRole("button", { name: "Remove Head office" }).click();
    await page.getByRole("button", { name: "Remove it" }).click();
    await page.getByText("No deployments yet.").waitFor();
    expect(await calls(page)).toEqual([["remove", "d0"]]);
    await page.close();
  });

  it("shows a notice passed from the main process (e.g. a deep link to an unknown deployment)", async () => {
    const page = await openPage("/picker.html", { notice: 'The link asked for a deployment named "Elsewhere".' });
    await page.getByRole("alert").filter({ hasText: 'named "Elsewhere"' }).waitFor();
    await page.close();
  });
});

describe("offline page", () => {
  it("names the deployment and the reason, and Retry and Switch call the shell", async () => {
    const query = new URLSearchParams({
      name: "Local",
      origin: "http://localhost:3000",
      reason: "ERR_CONNECTION_REFUSED",
    });
    const page = await openPage(`/offline.html?${query}`);
    await page.getByRole("heading", { name: "Cannot reach Local" }).waitFor();
    await page.getByText("http://localhost:3000 did not answer.").waitFor();
    await page.getByText("Reason: ERR_CONNECTION_REFUSED").waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("retry");
    await page.getByRole("button", { name: "Retry" }).click();
    await page.getByText(/Still unreachable \(.*\): Could not reach http:\/\/localhost:3000: ECONNREFUSED/).waitFor();
    await page.getByRole("button", { name: "Switch deployment…" }).click();
    expect(await calls(page)).toEqual([
      ["retry", null],
      ["switchDeployment", null],
    ]);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
    await page.close();
  });
});

describe("accessibility (axe, WCAG 2 A/AA)", () => {
  it("the picker (empty, and with deployments) and the offline page have no serious violation", async () => {
    // axe is injected into the page, which the pages' CSP forbids: this browser alone bypasses it.
    const axeProfile = tempDir("atrium-desktop-axe");
    const axeContext = await chromium.launchPersistentContext(axeProfile.path, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      bypassCSP: true,
    });
    try {
      const query = new URLSearchParams({ name: "Local", origin: "http://localhost:3000", reason: "ERR_TIMED_OUT" });
      for (const [path, options, heading] of [
        ["/picker.html", {}, "Atrium deployments"],
        ["/picker.html", { existing: ["Head office", "Harbor Bakery"], notice: "A notice." }, "Atrium deployments"],
        [`/offline.html?${query}`, {}, "Cannot reach Local"],
      ] as const) {
        const page = await openPage(path, options, axeContext);
        await page.getByRole("heading", { name: heading }).waitFor();
        expect(await seriousViolations(page, AXE), path).toEqual([]);
        await page.close();
      }
    } finally {
      await axeContext.close();
      axeProfile.remove();
    }
  });
});
