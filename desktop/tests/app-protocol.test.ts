import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/helpers/temp";
import { resolveShellAsset, SHELL_CSP, shellAssetResponse } from "../src/main/app-protocol";

// The renderer folder inside a folder of the test's own, which holds the file an escape would reach.
const parent = tempDir("atrium-desktop-renderer");
afterAll(() => parent.remove());
const root = join(parent.path, "renderer");
mkdirSync(root);
writeFileSync(join(root, "picker.html"), "<!doctype html><title>picker</title>");
writeFileSync(join(root, "picker.js"), "export {};");
mkdirSync(join(root, "nested"));
writeFileSync(join(root, "nested", "secret.txt"), "no");
writeFileSync(join(root, "..", "outside.html"), "outside");

describe("app://shell pages", () => {
  it("serves the renderer's pages and scripts with their types, a strict CSP and nosniff", async () => {
    const page = await shellAssetResponse("app://shell/picker.html?x=1", root);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(SHELL_CSP);
    expect(SHELL_CSP).toContain("default-src 'none'");
    expect(SHELL_CSP).not.toContain("unsafe");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await page.text()).toContain("picker");
    const script = await shellAssetResponse("app://shell/picker.js", root);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  });

  it.each([
    "app://shell/../outside.html",
    "app://shell/%2e%2e/outside.html",
    "app://shell/..%2Foutside.html",
    "app://shell/nested/secret.txt",
    "app://shell/missing.html",
    "app://other/picker.html",
    "https://shell/picker.html",
    "app://shell/picker.html%00.js",
  ])("answers 404 for %s", async (url) => {
    expect((await shellAssetResponse(url, root)).status).toBe(404);
  });

  it("never resolves outside the renderer folder", () => {
    expect(resolveShellAsset("app://shell/picker.html", root)).toBe(join(root, "picker.html"));
    // %2e%2e is a dot segment to the URL parser (it stays inside); an encoded slash is not, so it is caught here.
    expect(resolveShellAsset("app://shell/%2e%2e/outside.html", root)).toBe(join(root, "outside.html"));
    expect(resolveShellAsset("app://shell/..%2Foutside.html", root)).toBeNull();
    expect(resolveShellAsset("app://shell/..%5Coutside.html", root)).toBeNull();
  });
});
