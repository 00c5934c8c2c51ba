import { describe, expect, it } from "vitest";
import { recordsFor } from "./dns-check.server";
import { normalizeHostname, txtNameOf } from "./hostname.server";

describe("normalizeHostname", () => {
  const own = ["atrium.example.net"];
  it.each([
    ["Shop.Example.COM", "shop.example.com"],
    ["shop.example.com.", "shop.example.com"],
    ["https://shop.example.com/", "shop.example.com"],
    ["  www.example.co.uk ", "www.example.co.uk"],
    ["café.example", "xn--caf-dma.example"],
    ["xn--caf-dma.example", "xn--caf-dma.example"],
  ])("%s → %s", (input, expected) => {
    expect(normalizeHostname(input, own)).toBe(expected);
  });

  it.each([
    "",
    "example",
    "1.2.3.4",
    "::1",
    "[::1]",
    "shop.example.com:8443",
    "shop_example.com",
    "shop..example.com",
    "-a.example.com",
    "a-.example.com",
    `${"a".repeat(64)}.com`,
    "foo.localhost",
    "atrium.example.net",
    "tenant.atrium.example.net",
    "example.123",
  ])("refuses %j with a field message", (input) => {
    expect(() => normalizeHostname(input, own)).toThrow(
      expect.objectContaining({
        kind: "invalid",
        detail: { issues: [expect.objectContaining({ field: "hostname" })] },
      }),
    );
  });

  it("puts the TXT record beside the host", () => {
    expect(txtNameOf("www.example.com")).toBe("_atrium.www.example.com");
  });
});

describe("recordsFor", () => {
  it("asks a subdomain for a CNAME and an apex for the configured addresses", () => {
    const target = { cname: "sites.example.net", addresses: ["203.0.113.1", "2001:db8::1"] };
    expect(recordsFor("www.example.com", "atrium-verify=x", target).map((r) => r.type)).toEqual(["TXT", "CNAME"]);
    expect(recordsFor("example.com", "atrium-verify=x", target)).toEqual([
      { type: "TXT", name: "_atrium.example.com", value: "atrium-verify=x" },
      { type: "A", name: "example.com", value: "203.0.113.1" },
      { type: "AAAA", name: "example.com", value: "2001:db8::1" },
    ]);
    expect(recordsFor("example.com", "t", { cname: "sites.example.net", addresses: [] }).map((r) => r.type)).toEqual([
      "TXT",
      "CNAME",
    ]);
  });
});
