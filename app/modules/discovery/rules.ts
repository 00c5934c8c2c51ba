/**
 * Discovery's input rules (ADR 021), as plain functions and zod schemas with no server imports: the console's
 * forms, the editor API and the public redirect lookup all normalise and validate the same way.
 */
import { z } from "zod";

export const SEO_TITLE_MAX = 70;
export const SEO_DESCRIPTION_MAX = 320;
export const LLMS_SUMMARY_MAX = 2_000;
export const REDIRECT_PATH_MAX = 500;
export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/**
 * A site path as redirects store and look it up: a leading "/", no query or fragment, lower case, no trailing
 * slash (but "/" itself), percent-escapes decoded where they decode. `/Old-Page/?utm=x` and `/old-page` are the
 * same address to a visitor, so they are one redirect.
 */
export function normaliseSitePath(input: string): string {
  let path = input.trim().split(/[?#]/, 1)[0] ?? "";
  try {
    path = decodeURI(path);
  } catch {
    // An escape that does not decode is kept as typed: it can still match the same typed request.
  }
  path = `/${path.replace(/^\/+/, "")}`.replace(/\/{2,}/g, "/").toLowerCase();
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/** A target that is a path on this site (`/new`, `/new?x=1`), as opposed to an absolute `http(s)://` URL. */
export const isSitePath = (target: string) => target.startsWith("/") && !target.startsWith("//");

function isHttpUrl(value: string, schemes: readonly string[]): boolean {
  try {
    const url = new URL(value);
    return schemes.includes(url.protocol) && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** BCP 47, checked and written the way `Intl` writes it (`en-gb` → `en-GB`); null when it is not a tag. */
export function canonicalLocale(value: string): string | null {
  try {
    const [tag] = Intl.getCanonicalLocales(value.trim());
    return tag ?? null;
  } catch {
    return null;
  }
}

const optionalText = (max: number, what: string) =>
  z
    .string()
    .trim()
    .max(max, `${what} is at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

/** A page's search settings, as the console's form and `PUT /api/editor/discovery/seo/pages/{id}` send them. */
export const PageSeoInput = z.object({
  title: optionalText(SEO_TITLE_MAX, "A search title"),
  description: optionalText(SEO_DESCRIPTION_MAX, "A search description"),
  canonical: z
    .string()
    .trim()
    .max(2_000, "An address is at most 2,000 characters")
    .nullish()
    .transform((v) => v || null)
    .refine((v) => v === null || isHttpUrl(v, ["https:"]) || (isSitePath(v) && !/\s/.test(v)), {
      message: "Give an address starting with https://, or a path on your site starting with /",
    }),
  noindex: z.boolean().default(false),
  locale: z
    .string()
    .trim()
    .max(35, "A language tag is at most 35 characters")
    .nullish()
    .transform((v, ctx) => {
      if (!v) return null;
      const tag = canonicalLocale(v);
      if (!tag) {
        ctx.addIssue({ code: "custom", message: "Give a language tag such as en, fr or pt-BR" });
        return z.NEVER;
      }
      return tag;
    }),
  translationOf: z
    .string()
    .trim()
    .max(40)
    .nullish()
    .transform((v) => v || null),
});
export type PageSeoInput = z.output<typeof PageSeoInput>;

export const RedirectInput = z.object({
  from: z
    .string()
    .trim()
    .min(1, "Give the old address, a path such as /old-page")
    .max(REDIRECT_PATH_MAX, `An address is at most ${REDIRECT_PATH_MAX} characters`)
    .refine((v) => !/^[a-z][a-z0-9+.-]*:/i.test(v) && !v.startsWith("//"), {
      message: "Give a path on your site, such as /old-page, not a full address",
    })
    .refine((v) => !/\s/.test(v), { message: "An address has no spaces" })
    .transform(normaliseSitePath),
  to: z
    .string()
    .trim()
    .min(1, "Give where it goes: a path such as /new-page, or an address starting with https://")
    .max(2_000, "An address is at most 2,000 characters")
    .refine((v) => !/\s/.test(v), { message: "An address has no spaces" })
    .refine((v) => isSitePath(v) || isHttpUrl(v, ["https:", "http:"]), {
      message: "Give a path on your site starting with /, or an address starting with https://",
    }),
  status: z.coerce
    .number()
    .default(301)
    .refine((v): v is RedirectStatus => (REDIRECT_STATUSES as readonly number[]).includes(v), {
      message: "Choose 301 (moved for good) or 302 (for now)",
    }),
});
export type RedirectInput = z.output<typeof RedirectInput>;

export const SiteSeoInput = z.object({ noindex: z.boolean() });

export const LlmsInput = z.object({
  enabled: z.boolean(),
  summary: z
    .string()
    .trim()
    .max(LLMS_SUMMARY_MAX, `The summary is at most ${LLMS_SUMMARY_MAX.toLocaleString("en")} characters`)
    .default(""),
});

/** The most lines one import takes: a whole old site's worth, in one transaction. */
export const REDIRECT_IMPORT_MAX = 1_000;

/**
 * Pasted lines `from to [301|302]` (spaces or tabs between; blank lines and `#` comments skipped), each checked
 * as `RedirectInput`. Every bad line is named at once, so one paste can be fixed in one go.
 */
export function parseRedirectLines(text: string): {
  lines: { line: number; input: RedirectInput }[];
  errors: string[];
} {
  const lines: { line: number; input: RedirectInput }[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const content = raw.trim();
    if (!content || content.startsWith("#")) return;
    const [from = "", to = "", status, ...rest] = content.split(/\s+/);
    if (!to || rest.length) {
      errors.push(
        `Line ${index + 1}: write the old address, the new one and optionally 301 or 302, separated by spaces`,
      );
      return;
    }
    const parsed = RedirectInput.safeParse({ from, to, status: status ?? 301 });
    if (parsed.success) lines.push({ line: index + 1, input: parsed.data });
    else errors.push(`Line ${index + 1}: ${parsed.error.issues[0]?.message ?? "not a redirect"}`);
  });
  if (!lines.length && !errors.length) errors.push("Paste at least one line: /old-page /new-page 301");
  if (lines.length + errors.length > REDIRECT_IMPORT_MAX)
    errors.unshift(`At most ${REDIRECT_IMPORT_MAX.toLocaleString("en")} lines at a time`);
  return { lines, errors };
}
