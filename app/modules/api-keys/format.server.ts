/**
 * The shape of an API key, in the manner of GitHub's tokens: `atr_<environment>_` + 30 base62 characters
 * of randomness (about 178 bits) + a 6-character base62 CRC32 checksum of everything before it. The prefix
 * makes a leaked key recognisable to secret scanners; the checksum refuses a mistyped or made-up key
 * without a database lookup.
 */
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { KeyEnvironment } from "~db/schema";
import { sha256Hex } from "~/lib/hash.server";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^atr_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

function base62(value: number, width: number): string {
  let out = "";
  for (let v = value; v > 0; v = Math.floor(v / 62)) out = ALPHABET[v % 62] + out;
  return out.padStart(width, "0");
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: bytes above it are dropped so every character is equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const checksumOf = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

export interface NewKey {
  key: string;
  displayPrefix: string;
  hash: string;
}

export function generateKey(environment: KeyEnvironment): NewKey {
  const body = `atr_${environment}_${randomBase62(RANDOM_LENGTH)}`;
  const key = body + checksumOf(body);
  return { key, displayPrefix: key.slice(0, `atr_${environment}_`.length + 6), hash: hashKey(key) };
}

/** Whether `token` has a key's shape and a valid checksum (no database involved). */
export function isWellFormedKey(token: string): boolean {
  const match = KEY_PATTERN.exec(token);
  if (!match) return false;
  return checksumOf(token.slice(0, -CHECKSUM_LENGTH)) === match[3];
}

export function looksLikeKey(token: string): boolean {
  return token.startsWith("atr_");
}

export function hashKey(key: string): string {
  return sha256Hex(key);
}
