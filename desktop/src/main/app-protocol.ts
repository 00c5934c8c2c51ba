/**
 * The shell's own pages (deployment picker, offline page) are served as `app://shell/…` from the packaged
 * renderer folder instead of file://, so they have a real origin that IPC checks can name, a strict CSP, and
 * no way to read other files on disk.
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import type { Session } from "electron";
import { SHELL_ORIGIN, SHELL_SCHEME } from "../shared/channel-names";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

export const SHELL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The file behind an app://shell URL, or null when the URL leaves the renderer folder or names another kind of file. */
export function resolveShellAsset(requestUrl: string, root: string): string | null {
  let pathname: string;
  try {
    const url = new URL(requestUrl);
    if (`${url.protocol}//${url.host}` !== SHELL_ORIGIN) return null;
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // A backslash is a separator on Windows: refused everywhere, so the check means the same on every platform.
  if (/[\\\0]/.test(pathname)) return null;
  const base = normalize(root);
  const file = normalize(join(base, pathname));
  if (!file.startsWith(base.endsWith(sep) ? base : base + sep)) return null;
  return extname(file) in CONTENT_TYPES ? file : null;
}

export async function shellAssetResponse(requestUrl: string, root: string): Promise<Response> {
  const file = resolveShellAsset(requestUrl, root);
  const body = file === null ? null : await readFile(file).catch(() => null);
  if (file === null || body === null) return new Response("Not found", { status: 404 });
  return new Response(new Uint8Array(body), {
    headers: {
      "content-type": CONTENT_TYPES[extname(file)] ?? "application/octet-stream",
      "content-security-policy": SHELL_CSP,
      "x-content-type-options": "nosniff",
    },
  });
}

const served = new WeakSet<Session>();

/** Protocol handlers belong to a session: the picker's and each deployment's (for its offline page) need one. */
export function serveShellPages(session: Session, root: string): void {
  if (served.has(session)) return;
  session.protocol.handle(SHELL_SCHEME, (request) => shellAssetResponse(request.url, root));
  served.add(session);
}
