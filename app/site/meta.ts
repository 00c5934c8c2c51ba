/**
 * The head of every public page, in one place: `<title>`, description, canonical address, Open Graph and
 * Twitter tags, and structured data. Page routes pass what they know (title, description, path, image);
 * the absolute origin comes from the hosts module through the `$site` layout's data, never from the request.
 */
import type { MetaDescriptor } from "@remix-run/node";

export interface SiteMetaImage {
  /** Absolute, or a path on the site's origin. */
  url: string;
  width?: number | null;
  height?: number | null;
  alt?: string;
}

export interface SiteMetaInput {
  siteName: string;
  /** The site's public origin, e.g. `https://atrium.example` (no trailing slash). */
  origin: string;
  /** The page's path on that origin, e.g. `/harbor-bakery/about`. */
  path: string;
  /** The page's own title; the site's name is added after it unless they are the same. */
  title: string;
  description: string;
  image?: SiteMetaImage | null;
  type?: "website" | "article";
  noindex?: boolean;
  /** An absolute canonical URL other than `origin` + `path` (the operator's choice in Discovery). */
  canonical?: string;
  /** The page's language versions (`hreflang`), absolute, `x-default` included. */
  alternates?: readonly { hreflang: string; href: string }[];
  /** Structured data objects (schema.org), each rendered as its own `application/ld+json` block. */
  jsonLd?: readonly object[];
}

export function absoluteUrl(origin: string, pathOrUrl: string): string {
  return new URL(pathOrUrl, `${origin}/`).toString();
}

/** The Open Graph and Twitter tags of a page's sharing image (with the large-image card). */
export function imageMeta(origin: string, image: SiteMetaImage): MetaDescriptor[] {
  const url = absoluteUrl(origin, image.url);
  const tags: MetaDescriptor[] = [
    { property: "og:image", content: url },
    { name: "twitter:image", content: url },
  ];
  if (image.width) tags.push({ property: "og:image:width", content: String(image.width) });
  if (image.height) tags.push({ property: "og:image:height", content: String(image.height) });
  if (image.alt)
    tags.push({ property: "og:image:alt", content: image.alt }, { name: "twitter:image:alt", content: image.alt });
  tags.push({ name: "twitter:card", content: "summary_large_image" });
  return tags;
}

export function siteMeta(input: SiteMetaInput): MetaDescriptor[] {
  const title = input.title === input.siteName ? input.title : `${input.title} · ${input.siteName}`;
  const canonical = input.canonical ?? absoluteUrl(input.origin, input.path);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:site_name", content: input.siteName },
    { property: "og:type", content: input.type ?? "website" },
    { property: "og:title", content: input.title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: canonical },
    { name: "twitter:title", content: input.title },
    { name: "twitter:description", content: input.description },
  ];
  tags.push(...(input.image ? imageMeta(input.origin, input.image) : [{ name: "twitter:card", content: "summary" }]));
  for (const alt of input.alternates ?? [])
    tags.push({ tagName: "link", rel: "alternate", hrefLang: alt.hreflang, href: alt.href });
  if (input.noindex) tags.push({ name: "robots", content: "noindex" });
  for (const data of input.jsonLd ?? []) tags.push({ "script:ld+json": data });
  return tags;
}
