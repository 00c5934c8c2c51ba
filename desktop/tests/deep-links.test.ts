import { describe, expect, it } from "vitest";
import { deepLinkFromArgv, deepLinkTarget, isConsolePath, parseDeepLink } from "../src/main/deep-links";

describe("atrium:// deep links", () => {
  it.each([
    ["atrium://open?deployment=Harbor%20Bakery&path=/shop/orders", "Harbor Bakery", "/shop/orders"],
    ["atrium://open/?deployment=local&path=%2Fsettings%2Fsops%3Fpage%3D2", "local", "/settings/sops?page=2"],
    ["atrium:open?deployment=local", "local", "/"],
    ["ATRIUM://open?deployment=local&path=/", "local", "/"],
  ])("opens %s", (url, deployment, path) => {
    expect(parseDeepLink(url)).toEqual({ ok: true, link: { deployment, path } });
  });

  it.each([
    ["atrium://delete?deployment=local", /Unknown atrium:\/\/ action "delete"/],
    ["atrium://open/extra?deployment=local", /Unknown atrium:\/\/ action/],
    ["atrium://open?path=/shop", /does not name a deployment/],
    ["atrium://open?deployment=%20&path=/shop", /does not name a deployment/],
    ["atrium://open?deployment=local&path=//evil.example/x", /is not a page/],
    ["atrium://open?deployment=local&path=https://evil.example/", /is not a page/],
    ["atrium://open?deployment=local&path=javascript:alert(1)", /is not a page/],
    ["atrium://open?deployment=local&path=/%5C%5Cevil.example", /is not a page/],
    ["atrium://open?deployment=local&path=/a%0d%0ab", /is not a page/],
    ["https://open?deployment=local", /Not an atrium:\/\/ link/],
    ["::::", /not an address/],
  ])("refuses %s", (url, message) => {
    const result = parseDeepLink(url);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });

  it("resolves a path on the deployment only", () => {
    expect(deepLinkTarget("https://atrium.example.com", "/shop/orders?status=open#top")).toBe(
      "https://atrium.example.com/shop/orders?status=open#top",
    );
    expect(deepLinkTarget("https://atrium.example.com", "/../../etc/passwd")).toBe(
      "https://atrium.example.com/etc/passwd",
    );
    expect(deepLinkTarget("https://atrium.example.com", "//evil.example")).toBeNull();
    expect(isConsolePath("/\\evil.example")).toBe(false);
    expect(isConsolePath("shop")).toBe(false);
  });

  it("finds the link among the arguments a second instance was started with", () => {
    expect(deepLinkFromArgv(["/opt/Atrium/atrium", "--no-sandbox", "atrium://open?deployment=x"])).toBe(
      "atrium://open?deployment=x",
    );
    expect(deepLinkFromArgv(["atrium.exe", "atrium:open?deployment=x"])).toBe("atrium:open?deployment=x");
    expect(deepLinkFromArgv(["/opt/Atrium/atrium", "."])).toBeUndefined();
  });
});
