/** The head of a public page built from blocks (`/{site}`, `/{site}/{page}`), through `siteMeta`. */
import type { MetaDescriptor } from "@remix-run/node";
import type { HeadSeo } from "~/modules/discovery/public.server";
import type { PageContent } from "~/modules/sites/blocks";
import { siteMeta } from "./meta";

interface HeadData {
  siteName: string;
  origin: string;
  path: string;
  /** The site's home page, absolute (at the final address: `https://shop.example/` or `…/{slug}`). */
  homeUrl: string;
  page: { title: string; description: string; content: PageContent } | null;
  shareImage: { src: string; width: number | null; height: number | null; alt: string } | null;
  /** The operator's search settings (Discovery): they win over what the page itself says. */
  seo?: HeadSeo | null;
}

/** A description when the operator wrote none: the page's first words. */
function firstWords(content: PageContent): string {
  for (const block of content.blocks) {
    if (block.type === "hero" && block.text) return block.text;
    if (block.type === "richText") {
      const text = block.html
        .replace(/<[^>]+>/g, " ")
        .replace(/&amp;/g, "&")
        .replace(/&[a-z#0-9]+;/gi, " ")
        .replace(/\s+/g, " ")
        .trim();
      if (text) return text.length > 160 ? `${text.slice(0, 159).trimEnd()}…` : text;
    }
  }
  return "";
}

export function pageHead(data: HeadData | undefined, home: boolean): MetaDescriptor[] {
  if (!data) return [];
  const { siteName, origin, path, page, seo } = data;
  const title =
    seo?.title || (home ? (page && page.title !== "Home" ? page.title : siteName) : (page?.title ?? siteName));
  const description =
    seo?.description ||
    page?.description ||
    (page ? firstWords(page.content) : "") ||
    `${siteName}: opening soon. Come back shortly.`;
  return siteMeta({
    canonical: seo?.canonical ?? undefined,
    noindex: seo?.noindex,
    alternates: seo?.alternates,
    siteName,
    origin,
    path,
    title,
    description,
    image: data.shareImage
      ? {
          url: data.shareImage.src,
          width: data.shareImage.width,
          height: data.shareImage.height,
          alt: data.shareImage.alt,
        }
      : null,
    jsonLd: page
      ? [
          {
            "@context": "https://schema.org",
            "@type": "WebPage",
            name: title,
            url: new URL(path, `${origin}/`).toString(),
            ...(description ? { description } : {}),
            isPartOf: {
              "@type": "WebSite",
              name: siteName,
              url: data.homeUrl,
            },
          },
        ]
      : [],
  });
}
