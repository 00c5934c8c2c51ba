import { describe, expect, it } from "vitest";
import { CONSOLE_SEGMENTS } from "~/lib/access-contract.server";
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
    for (const segment of [...CONSOLE_SEGMENTS, "api", "auth", "portal", "oauth", "assets"]) {
      expect(RESERVED_SLUGS.has(segment), segment).toBe(true);
      expect(SlugSchema.safeParse(segment).error?.issues[0]?.message).toMatch(/reserved/);
    }
  });
});
