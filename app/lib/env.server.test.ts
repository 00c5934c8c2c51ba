import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvSchema, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("has a working default for everything", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATABASE_URL: "file:./data/atrium.db",
      SEED_DEMO: true,
      TRUST_PROXY: false,
      production: false,
      cookieSecure: false,
      MAX_BODY_BYTES: 1_048_576,
    });
  });

  it("makes cookies Secure in production unless told otherwise", () => {
    expect(parseEnv({ NODE_ENV: "production" }).cookieSecure).toBe(true);
    expect(parseEnv({ NODE_ENV: "production", COOKIE_SECURE: "false" }).cookieSecure).toBe(false);
  });

  it("reads TRUST_PROXY as Express does", () => {
    expect(parseEnv({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: "2" }).TRUST_PROXY).toBe(2);
    expect(parseEnv({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8"]);
  });

  it("names every invalid variable", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(/PORT[\s\S]*DATABASE_URL/);
  });
});

describe("documentation of the environment", () => {
  const variables = Object.keys(EnvSchema.shape).sort();

  it("lists every variable in .env.example", () => {
    const example = readFileSync(new URL("../../.env.example", import.meta.url), "utf8");
    const listed = [...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(variables);
  });

  it("lists every variable in the README's table", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    for (const name of variables) expect(readme, name).toContain(`| \`${name}\``);
  });
});
