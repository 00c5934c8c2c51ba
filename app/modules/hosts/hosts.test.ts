import { describe, expect, it } from "vitest";
import { parseEnv } from "~/lib/env.server";
import { configuredHosts, deploymentHosts, hostnameOf, isLoopback } from "./hosts.server";

const hostsOf = (env: Record<string, string>) => deploymentHosts(parseEnv(env));

describe("hostnameOf", () => {
  it.each([
    ["Example.COM", "example.com"],
    ["example.com.:8080", "example.com"],
    ["[::1]:3000", "[::1]"],
    ["127.1", "127.0.0.1"],
  ])("%s is %s", (host, hostname) => expect(hostnameOf(host)).toBe(hostname));

  it("is null for what is not a host", () => expect(hostnameOf("a b")).toBeNull());
});

describe("isLoopback", () => {
  it.each(["localhost", "app.localhost", "127.0.0.1", "127.9.8.7", "[::1]"])("%s is loopback", (h) =>
    expect(isLoopback(h)).toBe(true),
  );
  it.each(["evil.example", "localhost.evil.example", "10.0.0.1", "0.0.0.0", "[::]", "128.0.0.1"])("%s is not", (h) =>
    expect(isLoopback(h)).toBe(false),
  );
});

describe("deployment hosts without PUBLIC_URL (development, tests, npm start)", () => {
  const hosts = hostsOf({});

  it("serves loopback names on any port, nothing else", async () => {
    for (const host of ["localhost:3000", "127.0.0.1:51234", "[::1]:3000", "LOCALHOST"])
      expect(await hosts.serves(host), host).toBe(true);
    for (const host of ["evil.example", "evil.example:3000", "10.0.0.7", "localhost.evil.example"])
      expect(await hosts.serves(host), host).toBe(false);
  });

  it("links to the loopback origin the request used, marked as the request's own", async () => {
    expect(await hosts.originFor("http://localhost:3000")).toEqual({
      origin: "http://localhost:3000",
      fromRequest: true,
    });
    expect(await hosts.originFor("http://evil.example")).toBeNull();
  });

  it("also serves the address it listens on when HOST names one", async () => {
    const lan = hostsOf({ HOST: "192.168.1.20" });
    expect(await lan.serves("192.168.1.20:3000")).toBe(true);
    expect(await lan.serves("192.168.1.21:3000")).toBe(false);
  });
});

describe("deployment hosts with PUBLIC_URL", () => {
  const hosts = hostsOf({ PUBLIC_URL: "https://Atrium.example.com/", AUTH_URL: "https://auth.example.com" });

  it("reads PUBLIC_URL as an origin", () => {
    expect(parseEnv({ PUBLIC_URL: "https://Atrium.example.com/" }).PUBLIC_URL).toBe("https://atrium.example.com");
    for (const bad of [
      "atrium.example.com",
      "ftp://atrium.example.com",
      "https://a.example/app",
      "https://a.example/?x",
    ])
      expect(() => parseEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });

  it("serves its host, AUTH_URL's and loopback, whatever the port a proxy leaves in Host", async () => {
    for (const host of ["atrium.example.com", "atrium.example.com:443", "auth.example.com", "localhost:3000"])
      expect(await hosts.serves(host), host).toBe(true);
    expect(await hosts.serves("evil.example")).toBe(false);
    expect(await hosts.serves("example.com")).toBe(false);
  });

  it("links to the configured origin, even for a request on loopback", async () => {
    expect(await hosts.originFor("http://atrium.example.com")).toEqual({
      origin: "https://atrium.example.com",
      fromRequest: false,
    });
    expect(await hosts.originFor("http://127.0.0.1:3000")).toEqual({
      origin: "https://atrium.example.com",
      fromRequest: false,
    });
    expect((await hosts.originFor("https://auth.example.com"))?.origin).toBe("https://auth.example.com");
    expect(await hosts.originFor("https://evil.example")).toBeNull();
  });

  it("lists each configured host once", () => {
    expect(configuredHosts(parseEnv({ PUBLIC_URL: "https://a.example", AUTH_URL: "https://a.example/" }))).toEqual([
      { hostname: "a.example", origin: "https://a.example" },
    ]);
  });
});

describe("deployment hosts with verified custom domains (issue 14)", () => {
  const hosts = deploymentHosts(
    parseEnv({ PUBLIC_URL: "https://atrium.example" }),
    undefined,
    async (hostname) => hostname === "shop.example.com",
  );

  it("serves a verified domain beside the configured origin, nothing else", async () => {
    for (const host of ["shop.example.com", "SHOP.example.com:443", "atrium.example"])
      expect(await hosts.serves(host), host).toBe(true);
    for (const host of ["pending.example.com", "evil.example"]) expect(await hosts.serves(host), host).toBe(false);
  });

  it("links to https://{domain} on a request for it", async () => {
    expect(await hosts.originFor("http://shop.example.com")).toEqual({
      origin: "https://shop.example.com",
      fromRequest: false,
    });
    expect(await hosts.originFor("http://pending.example.com")).toBeNull();
  });
});
