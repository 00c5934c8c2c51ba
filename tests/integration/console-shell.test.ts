/**
 * The console shell over HTTP (ADR 015): a console path no page answers yet is the console's own 404, inside
 * the shell, for a signed-in operator and a sign-in redirect for anyone else — never the public "Site not
 * found"; public sites keep their paths.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createWorkspace, signUp } from "../helpers/client";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let operator: Client;
beforeAll(async () => {
  server = await startServer();
  operator = (await signUp(server.url)).client;
  await createWorkspace(operator, "Harbor Shell", "harbor-shell");
});
afterAll(() => server.close());

describe("console paths not built yet", () => {
  it.each([
    "/shop/nope/x",
    "/website/domains",
    "/inbox/x/y",
    "/customers/x/y",
    "/scheduling/nope/x",
    "/settings/nope",
    "/get-started/x",
  ])("%s answers the console's 404 inside the shell", async (path) => {
    const res = await operator.get(path);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Page not found");
    expect(html).toContain('aria-label="Console"');
    expect(html).toContain("Harbor Shell");
    expect(html).not.toContain("Site not found");
  });

  it.each(["/shop", "/customers/x"])("%s sends a signed-out visitor to sign in", async (path) => {
    const res = await new Client(server.url).get(path);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/login/);
  });
});

describe("public paths", () => {
  it("a site's address still renders the site", async () => {
    const res = await new Client(server.url).get("/harbor-shell");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Harbor Shell");
    expect(html).not.toContain('aria-label="Console"');
  });

  it("an unknown site is still the public 404", async () => {
    const res = await new Client(server.url).get("/no-such-shop-site");
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Site not found");
  });
});
