import { describe, expect, it } from "vitest";
import { generateKey, isWellFormedKey } from "./format.server";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("API key format", () => {
  it("has the environment prefix, 36 base62 characters and a valid checksum", () => {
    for (const environment of ["live", "test"] as const) {
      const { key, displayPrefix, hash } = generateKey(environment);
      expect(key).toMatch(new RegExp(`^atr_${environment}_[0-9A-Za-z]{36}$`));
      expect(isWellFormedKey(key)).toBe(true);
      expect(key.startsWith(displayPrefix)).toBe(true);
      expect(displayPrefix).toHaveLength(`atr_${environment}_`.length + 6);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("refuses every single-character change (the checksum catches a typo without a lookup)", () => {
    const { key } = generateKey("live");
    for (let i = "atr_live_".length; i < key.length; i += 1) {
      const replacement = ALPHABET[(ALPHABET.indexOf(key[i]!) + 1) % ALPHABET.length]!;
      expect(isWellFormedKey(key.slice(0, i) + replacement + key.slice(i + 1)), `position ${i}`).toBe(false);
    }
  });

  it("refuses another environment's prefix on the same body, and other shapes", () => {
    const { key } = generateKey("live");
    expect(isWellFormedKey(key.replace("atr_live_", "atr_test_"))).toBe(false);
    expect(isWellFormedKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedKey(`${key}x`)).toBe(false);
    expect(isWellFormedKey("")).toBe(false);
  });

  it("draws fresh randomness each time", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateKey("live").key));
    expect(keys.size).toBe(1000);
  });
});
