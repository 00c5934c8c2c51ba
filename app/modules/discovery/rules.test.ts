import { describe, expect, it } from "vitest";
import { redirectLocation } from "./public.server";
import { RedirectInput, canonicalLocale, normaliseSitePath } from "./rules";

describe("normaliseSitePath", () => {
  it.each([
    ["/Old-Page/", "/old-page"],
    ["old-page?utm_source=x#top", "/old-page"],
    ["//a//b///", "/a/b"],
    ["/", "/"],
    ["", "/"],
    ["/caf%C3%A9", "/café"],
    ["/100%", "/100%"],
  ])("%s → %s", (input, expected) => expect(normaliseSitePath(input)).toBe(expected));
});

describe("redirectLocation", () => {
  it("puts a site path under the link base and keeps the visitor's query after the target's own", () => {
    expect(redirectLocation("/about", "harbor", "/harbor", "")).toBe("/harbor/about");
    expect(redirectLocation("/", "harbor", "/harbor", "?a=1")).toBe("/harbor?a=1");
    expect(redirectLocation("/", "harbor", "", "")).toBe("/");
    expect(redirectLocation("/menu?v=2#today", "harbor", "", "?utm=x")).toBe("/menu?v=2&utm=x#today");
    expect(redirectLocation("https://example.com/x", "harbor", "/harbor", "?a=1")).toBe("https://example.com/x?a=1");
  });

  it("takes a target typed with the slug (the address on the deployment's host) as the site path it names", () => {
    expect(redirectLocation("/harbor/menu", "harbor", "/harbor", "")).toBe("/harbor/menu");
    expect(redirectLocation("/harbor/menu", "harbor", "", "?a=1")).toBe("/menu?a=1");
    expect(redirectLocation("/harbor", "harbor", "", "")).toBe("/");
    expect(redirectLocation("/harbor", "harbor", "/harbor", "")).toBe("/harbor");
    // Another path that merely starts with the same letters is a path of its own.
    expect(redirectLocation("/harbormaster", "harbor", "/harbor", "")).toBe("/harbor/harbormaster");
  });
});

describe("the input rules", () => {
  it("canonicalises language tags and refuses what is not one", () => {
    expect(canonicalLocale("pt-br")).toBe("pt-BR");
    expect(canonicalLocale("not a tag")).toBeNull();
  });

  it("refuses a protocol-relative target, an absolute `from` and other statuses", () => {
    expect(RedirectInput.safeParse({ from: "/a", to: "//evil.example" }).success).toBe(false);
    expect(RedirectInput.safeParse({ from: "http://x.example/a", to: "/b" }).success).toBe(false);
    expect(RedirectInput.safeParse({ from: "/a", to: "/b", status: 308 }).success).toBe(false);
    expect(RedirectInput.parse({ from: "/A/", to: "http://example.com/b" })).toEqual({
      from: "/a",
      to: "http://example.com/b",
      status: 301,
    });
  });
});
