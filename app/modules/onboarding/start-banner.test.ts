import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startBanner, type BannerFacts } from "./start-banner.server";

const facts: BannerFacts = {
  url: "http://localhost:3000",
  production: false,
  dev: false,
  dialect: "sqlite",
  databaseUrl: "file:./data/atrium.db",
  appKey: { source: "file", path: "/srv/atrium/data/app.key" },
  demo: { email: "demo@atrium.test", demoPassword: true, siteSlug: "harbor-bakery" },
};

describe("the start-up banner", () => {
  it("says where to go, how to sign in and where the data lives", () => {
    const banner = startBanner(facts);
    expect(banner.message).toBe("Atrium is listening on http://localhost:3000");
    expect(banner.text).toContain("Atrium is listening on http://localhost:3000\n");
    expect(banner.text).toContain("Sign in    demo@atrium.test / atrium-demo-password\n");
    expect(banner.text).toContain("Demo site  http://localhost:3000/harbor-bakery\n");
    expect(banner.text).toContain(`Database   SQLite, ${resolve("data/atrium.db")}\n`);
    expect(banner.text).toContain("App key    /srv/atrium/data/app.key (back it up with the database)\n");
    expect(banner.fields).toEqual({
      url: "http://localhost:3000",
      dev: false,
      database: "sqlite",
      databaseLocation: resolve("data/atrium.db"),
      appKey: "/srv/atrium/data/app.key",
      demo: {
        email: "demo@atrium.test",
        password: "atrium-demo-password",
        site: "http://localhost:3000/harbor-bakery",
      },
    });
  });

  it("never repeats a password the operator has changed", () => {
    const banner = startBanner({ ...facts, demo: { ...facts.demo!, demoPassword: false } });
    expect(banner.text).toContain("Sign in    demo@atrium.test (its password was changed since the demo was seeded)");
    expect(JSON.stringify(banner)).not.toContain("atrium-demo-password");
  });

  it("shows no password in production, and tells the operator to delete the demo account", () => {
    const banner = startBanner({ ...facts, production: true });
    expect(banner.text).toContain("demo@atrium.test still has the published demo password: delete it");
    expect(JSON.stringify(banner)).not.toContain("atrium-demo-password");
  });

  it("without a demo account, says how to make an account, and shows no demo site", () => {
    const banner = startBanner({ ...facts, demo: undefined });
    expect(banner.text).toContain("users:create");
    expect(banner.text).not.toContain("Demo site");
    expect(banner.fields.demo).toBeUndefined();
  });

  it("names a Postgres database by host and name, never its credentials", () => {
    const banner = startBanner({
      ...facts,
      dialect: "postgres",
      databaseUrl: "postgres://atrium:s3cret@db.internal:5432/atrium?sslmode=require",
      appKey: { source: "env" },
    });
    expect(banner.fields).toMatchObject({ databaseLocation: "postgres://db.internal:5432/atrium", appKey: "APP_KEY" });
    expect(banner.text).toContain("Database   PostgreSQL, postgres://db.internal:5432/atrium\n");
    expect(banner.text).toContain("App key    from APP_KEY\n");
    expect(JSON.stringify(banner)).not.toMatch(/s3cret|atrium:/);
  });
});
