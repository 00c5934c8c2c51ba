import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../tests/helpers/temp";
import { createSecretBox, loadAppKey } from "./secret-box.server";

describe("secret box", () => {
  const box = createSecretBox(Buffer.alloc(32, 7));

  it("opens what it sealed, and the sealed text does not contain the secret", () => {
    const sealed = box.seal("sops_very-secret", "sop_trigger:1");
    expect(sealed).not.toContain("very-secret");
    expect(box.open(sealed, "sop_trigger:1")).toBe("sops_very-secret");
    expect(box.seal("x", "a")).not.toBe(box.seal("x", "a")); // a fresh IV each time
  });

  it("refuses a value bound to another owner, altered, or sealed under another key", () => {
    const sealed = box.seal("secret", "sop_trigger:1");
    expect(() => box.open(sealed, "sop_trigger:2")).toThrow();
    const flipped = sealed.slice(0, -2) + (sealed.endsWith("A") ? "B" : "A") + sealed.slice(-1);
    expect(() => box.open(flipped, "sop_trigger:1")).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, "sop_trigger:1")).toThrow();
  });

  it("generates the key file once, private to its owner, and reads it back", () => {
    const dir = tempDir("atrium-key");
    try {
      const path = join(dir.path, "nested", "app.key");
      const first = loadAppKey({ APP_KEY_FILE: path });
      expect(first).toHaveLength(32);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(loadAppKey({ APP_KEY_FILE: path }).equals(first)).toBe(true);
      expect(Buffer.from(readFileSync(path, "utf8").trim(), "base64").equals(first)).toBe(true);
    } finally {
      dir.remove();
    }
  });

  it("prefers APP_KEY, and names a malformed one", () => {
    const key = Buffer.alloc(32, 1).toString("base64");
    expect(loadAppKey({ APP_KEY: key, APP_KEY_FILE: "/nonexistent/x" }).equals(Buffer.alloc(32, 1))).toBe(true);
    expect(() => loadAppKey({ APP_KEY: "c2hvcnQ=", APP_KEY_FILE: "/x" })).toThrow(/APP_KEY must hold 32 bytes/);
  });

  it("derives one stable key per purpose, none of them the app key", () => {
    const box = createSecretBox(Buffer.alloc(32, 7));
    const a = box.deriveKey("site-unlock-cookie");
    expect(a).toHaveLength(32);
    expect(a.equals(createSecretBox(Buffer.alloc(32, 7)).deriveKey("site-unlock-cookie"))).toBe(true);
    expect(a.equals(box.deriveKey("another purpose"))).toBe(false);
    expect(a.equals(Buffer.alloc(32, 7))).toBe(false);
    expect(a.equals(createSecretBox(Buffer.alloc(32, 8)).deriveKey("site-unlock-cookie"))).toBe(false);
  });
});
