/**
 * A site slug is the first path segment of a workspace's public site (`/{slug}`), so it must never shadow
 * a page or prefix of Atrium itself. Shared by the console form and the server-side check.
 */
import { z } from "zod";
import { CONSOLE_SEGMENTS } from "~/lib/console-pages";

export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  ...CONSOLE_SEGMENTS,
  // technical prefixes and callbacks
  "api",
  "auth",
  "portal",
  "oauth",
  "assets",
  "build",
  "public",
  "static",
  "well-known",
  "webhooks",
  "cron",
  "internal",
  "v1",
  "health",
  "favicon",
  "robots",
  "sitemap",
  "manifest",
  // names a visitor would take for Atrium's own
  "admin",
  "account",
  "accounts",
  "app",
  "apps",
  "console",
  "dashboard",
  "desktop",
  "docs",
  "help",
  "home",
  "new",
  "edit",
  "root",
  "site",
  "sites",
  "status",
  "support",
  "www",
  "mail",
  "cdn",
  "media",
  "files",
  "uploads",
  "atrium",
  "null",
  "undefined",
]);

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const SlugSchema = z
  .string()
  .trim()
  .min(2, "Use at least 2 characters")
  .max(48, "Use at most 48 characters")
  .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens (no hyphen at either end)")
  .refine((slug) => !RESERVED_SLUGS.has(slug), {
    message: "This address is reserved for Atrium's own pages; choose another",
  });

export const WorkspaceNameSchema = z.string().trim().min(1, "Enter a name").max(80, "Use at most 80 characters");
