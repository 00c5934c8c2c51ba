import { describe, expect, it } from "vitest";
import { parseDeploymentUrl } from "../src/shared/deployment-url";

describe("deployment addresses", () => {
  it.each([
    ["https://atrium.example.com", "https://atrium.example.com"],
    ["https://atrium.example.com:8443/settings/sops?x=1", "https://atrium.example.com:8443"],
    ["atrium.example.com", "https://atrium.example.com"],
    ["  https://Atrium.Example.com/  ", "https://atrium.example.com"],
    ["http://localhost:3000", "http://localhost:3000"],
    ["localhost:3000", "http://localhost:3000"],
    ["http://127.0.0.1:3000/login", "http://127.0.0.1:3000"],
    ["http://[::1]:3000", "http://[::1]:3000"],
    ["[::1]:3000", "http://[::1]:3000"],
  ])("accepts %s as %s", (input, origin) => {
    expect(parseDeploymentUrl(input)).toEqual({ ok: true, origin });
  });

  it.each([
    ["", /Enter the address/],
    ["http://atrium.example.com", /Plain http is only allowed for localhost/],
    ["http://192.168.1.10:3000", /Plain http is only allowed for localhost/],
    ["http://localhost.example.com", /Plain http is only allowed/],
    ["http://127.0.0.2", /Plain http is only allowed/],
    ["ftp://atrium.example.com", /Use an https:\/\/ address/],
    ["file:///etc/passwd", /Use an https:\/\/ address/],
    ["javascript://alert(1)", /Use an https:\/\/ address/],
    ["https://user:secret@atrium.example.com", /Leave the user name and password out/],
    ["https://exa mple.com", /is not a web address/],
  ])("refuses %j", (input, message) => {
    const result = parseDeploymentUrl(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(message);
  });
});
