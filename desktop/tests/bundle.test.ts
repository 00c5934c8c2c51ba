/**
 * The built shell, not its sources: dist/main/main.js booted by Node with `electron` swapped for a recording
 * stub (tests/fakes/electron-stub.ts, bundled here). The paths the bundle computes at run time (its preload, its pages)
 * must point at files the build wrote.
 */
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/helpers/temp";
import { CHANNEL_NAMES } from "../src/shared/channel-names";

const root = join(dirname(new URL(import.meta.url).pathname), "..");

interface BootReport {
  windows: Array<{ webPreferences: Record<string, unknown> }>;
  channels: string[];
  schemes: string[];
  url: string;
  preloadExists: boolean;
  page: { status: number; csp: string; body: string } | null;
  script: { status: number; type: string } | null;
}

let report: BootReport;
const work = tempDir("atrium-desktop-bundle");
afterAll(() => work.remove());
beforeAll(async () => {
  const stub = join(work.path, "electron-stub.cjs");
  await build({
    entryPoints: [join(root, "tests/fakes/electron-stub.ts")],
    outfile: stub,
    bundle: true,
    platform: "node",
    format: "cjs",
    logLevel: "warning",
  });
  // The main module runs itself unless VITEST is set (that is how the wiring tests import it): unset it here.
  const { VITEST: _vitest, ...env } = process.env;
  const output = execFileSync(process.execPath, ["-r", stub, join(root, "dist/main/main.js")], {
    env: { ...env, STUB_USER_DATA: work.path },
    encoding: "utf8",
  });
  report = JSON.parse(output.trim().split("\n").at(-1)!) as BootReport;
}, 60_000);

describe("the built main bundle", () => {
  it("boots into the picker, with every IPC channel and the app:// scheme registered", () => {
    expect(report.schemes).toEqual(["app"]);
    expect(report.url).toBe("app://shell/picker.html");
    expect(report.channels.sort()).toEqual(Object.values(CHANNEL_NAMES).sort());
    expect(report.windows[0]!.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true });
  });

  it("points the window at the preload the build wrote", () => {
    expect(report.windows[0]!.webPreferences.preload).toBe(join(root, "dist/preload/preload.js"));
    expect(report.preloadExists).toBe(true);
  });

  it("serves the picker page and its script from the build, under the shell's CSP", () => {
    expect(report.page).toMatchObject({ status: 200, csp: expect.stringContaining("default-src 'none'") });
    expect(report.page!.body).toContain("<h1>Atrium deployments</h1>");
    expect(report.script).toEqual({ status: 200, type: "text/javascript; charset=utf-8" });
  });
});
