import { describe, expect, it } from "vitest";
import { RESERVED_SLUGS, SlugSchema } from "./slug";

describe("site slugs", () => {
  it.each(["acme", "acme-bakery", "a1", "123", "harbor-bakery-2"])("accepts %j", (slug) => {
    expect(SlugSchema.safeParse(slug).success).toBe(true);
  });

  it.each(["", "a", "Acme", "acme bakery", "-acme", "acme-", "acme--co", "acme_co", "acme.co", "x".repeat(49)])(
    "refuses %j",
    (slug) => {
      expect(SlugSchema.safeParse(slug).success).toBe(false);
    },
  );

  it("reserves every console page and technical prefix", () => {
    // The spec's console pages and technical prefixes, written out here as the independent list.
    const spec = [
      "get-started",
      "settings",
      "insights",
      "scheduling",
      "customers",
      "inbox",
      "shop",
      "shipping",
      "website",
      "stories",
      "discovery",
      "communications",
      "forms",
      "login",
      "signup",
      "logout",
      "api",
      "auth",
      "portal",
      "oauth",
      "assets",
    ];
    for (const segment of spec) {
      expect(RESERVED_SLUGS.has(segment), segment).toBe(true);
      expect(SlugSchema.safeParse(segment).error?.issues[0]?.message).toMatch(/reserved/);
    }
  });
});
