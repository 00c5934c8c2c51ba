/**
 * Secrets we must use again (SOP trigger secrets, completion-notice secrets, later provider credentials) are
 * sealed with the app key using AES-256-GCM (DESIGN rule 4). A hash will not do for them: the server has to
 * compute HMACs with the secret itself.
 *
 * The key comes from APP_KEY, or from APP_KEY_FILE, which the embedded default generates on first start.
 * Each sealed value is bound (GCM additional data) to what it belongs to, e.g. `sop_trigger:<id>`, so a
 * ciphertext copied into another row does not open there.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Logger } from "pino";
import type { Env } from "~/lib/env.server";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  seal(plaintext: string, boundTo: string): string;
  /** Throws when the value was sealed under another key or for another owner, or was altered. */
  open(sealed: string, boundTo: string): string;
  /**
   * A 32-byte key for one purpose (e.g. `site-unlock-cookie`), derived from the app key with HKDF-SHA256: a
   * MAC key that is not the encryption key, and one purpose's MACs never verify as another's.
   */
  deriveKey(purpose: string): Buffer;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("The app key must be 32 bytes");
  return {
    seal(plaintext, boundTo) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(boundTo));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    open(sealed, boundTo) {
      const [version, data] = sealed.split(".");
      if (version !== VERSION || !data) throw new Error("Unknown sealed-secret format");
      const raw = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    },
    deriveKey(purpose) {
      return Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `atrium:${purpose}`, 32));
    },
  };
}

const decodeKey = (text: string, where: string): Buffer => {
  const key = Buffer.from(text.trim(), "base64");
  if (key.length !== 32) throw new Error(`${where} must hold 32 bytes in base64 (openssl rand -base64 32)`);
  return key;
};

/** APP_KEY, else the key file, generated (mode 0600) when it does not exist yet. */
export function loadAppKey(env: Pick<Env, "APP_KEY" | "APP_KEY_FILE">, logger?: Logger): Buffer {
  if (env.APP_KEY) return decodeKey(env.APP_KEY, "APP_KEY");
  const path = env.APP_KEY_FILE;
  try {
    return decodeKey(readFileSync(path, "utf8"), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    // `wx`: if another process created it first, fall through and read theirs.
    writeFileSync(path, `${randomBytes(32).toString("base64")}\n`, { flag: "wx", mode: 0o600 });
    logger?.info({ path }, "generated the app key: back it up with the database");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return decodeKey(readFileSync(path, "utf8"), path);
}
