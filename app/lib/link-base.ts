/**
 * The prefix of a site's public paths in the page being answered (issue 14, ADR 025): `/{slug}` on the
 * deployment's host, "" on the site's own domain. A type of its own so that a slug passed where a base is
 * wanted (`mediaSrc(workspace.slug, …)`) fails to compile instead of rendering `shop/media/…`.
 */
export type LinkBase = "" | `/${string}`;

/** The base of a site on the deployment's host. */
export const slugBase = (slug: string): LinkBase => `/${slug}`;

/** A site path (`""` for the home page, `/about`) under `base`: never empty (the home page on a domain is `/`). */
export const atBase = (base: LinkBase, sitePath = ""): string => `${base}${sitePath}` || "/";
