import type { Session } from "electron";
import { describe, expect, it, vi } from "vitest";
import { ALLOWED_PERMISSIONS, applyPermissionPolicy, decidePermission } from "../src/main/permissions";

const ORIGIN = "https://atrium.example.com";

describe("permission policy", () => {
  it("grants only the allow list, only to the deployment's origin", () => {
    expect([...ALLOWED_PERMISSIONS].sort()).toEqual(["clipboard-sanitized-write", "fullscreen"]);
    expect(decidePermission("clipboard-sanitized-write", "https://atrium.example.com/settings/sops/1", ORIGIN)).toBe(
      true,
    );
    expect(decidePermission("fullscreen", "https://atrium.example.com", ORIGIN)).toBe(true);
  });

  it.each([
    ["media", "https://atrium.example.com/"],
    ["geolocation", "https://atrium.example.com/"],
    ["notifications", "https://atrium.example.com/"],
    ["midi", "https://atrium.example.com/"],
    ["openExternal", "https://atrium.example.com/"],
    ["clipboard-read", "https://atrium.example.com/"],
    ["clipboard-sanitized-write", "https://evil.example/"],
    ["clipboard-sanitized-write", "http://atrium.example.com/"],
    ["fullscreen", "not a url"],
    ["fullscreen", undefined],
  ])("refuses %s for %s", (permission, url) => {
    expect(decidePermission(permission, url, ORIGIN)).toBe(false);
  });

  it("installs the policy on the deployment's session: requests, checks, devices and screen capture", () => {
    const session = {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
      setDisplayMediaRequestHandler: vi.fn(),
    };
    applyPermissionPolicy(session as unknown as Session, ORIGIN);

    const request = session.setPermissionRequestHandler.mock.calls[0]![0];
    const answers: boolean[] = [];
    request(null, "media", (granted: boolean) => answers.push(granted), { requestingUrl: `${ORIGIN}/` });
    request(null, "clipboard-sanitized-write", (granted: boolean) => answers.push(granted), {
      requestingUrl: `${ORIGIN}/settings`,
    });
    request(null, "clipboard-sanitized-write", (granted: boolean) => answers.push(granted), {
      requestingUrl: "https://evil.example/",
    });
    expect(answers).toEqual([false, true, false]);

    const check = session.setPermissionCheckHandler.mock.calls[0]![0];
    expect(check(null, "fullscreen", ORIGIN)).toBe(true);
    expect(check(null, "geolocation", ORIGIN)).toBe(false);

    expect(session.setDevicePermissionHandler.mock.calls[0]![0]()).toBe(false);
    const capture = vi.fn();
    session.setDisplayMediaRequestHandler.mock.calls[0]![0]({}, capture);
    expect(capture).toHaveBeenCalledWith({});
  });
});
