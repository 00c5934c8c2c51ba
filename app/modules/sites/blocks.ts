/**
 * A page's content as ordered blocks (ADR 017): the zod schemas the console's form and the editor API both
 * read, and the stored shape with the HTML of each block's Markdown rendered at save time (so a public request
 * never parses Markdown). Plain data, no server imports: the console, the API, the renderer and tests share it.
 */
import { z } from "zod";

export const BLOCK_TYPES = ["hero", "richText", "image", "gallery", "cta", "faq", "contactForm"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const BLOCK_LABELS: Record<BlockType, { label: string; description: string }> = {
  hero: { label: "Hero", description: "A large heading with a sentence, an optional image and a button." },
  richText: { label: "Text", description: "Paragraphs, headings, lists and links, written in Markdown." },
  image: { label: "Image", description: "One image from your media library, with a caption." },
  gallery: { label: "Gallery", description: "A grid of images from your media library." },
  cta: { label: "Call to action", description: "A short pitch with one button." },
  faq: { label: "Questions and answers", description: "Questions that open to their answers." },
  contactForm: { label: "Contact form", description: "A form visitors use to write to you; it lands in your inbox." },
};

/** How many revisions a page keeps; older ones are dropped as new ones are made. */
export const KEPT_REVISIONS = 50;

export const MAX_BLOCKS = 40;
export const MAX_GALLERY_IMAGES = 24;
export const MAX_FAQ_ITEMS = 30;

/**
 * Where a button or link may go: a path on this site (`/harbor-bakery/visit`), an anchor, a web address, or
 * a mail or phone link. Never `javascript:`, `data:` or any other scheme a browser would run.
 */
export function isSafeHref(href: string): boolean {
  if (/^\/(?!\/)/.test(href) || /^#[\w-]*$/.test(href)) return !/[\s\\]/.test(href);
  if (/^mailto:[^\s]+$/i.test(href) || /^tel:[+\d][\d\s().-]*$/i.test(href)) return true;
  try {
    const url = new URL(href);
    return (url.protocol === "https:" || url.protocol === "http:") && !/\s/.test(href);
  } catch {
    return false;
  }
}

const text = (label: string, max: number) =>
  z
    .string({ message: `Enter ${label}` })
    .trim()
    .max(max, `Use at most ${max} characters`);
const required = (label: string, max: number) => text(label, max).min(1, `Enter ${label}`);
const optional = (label: string, max: number) =>
  text(label, max)
    .optional()
    .transform((v) => v ?? "");
const href = z
  .string()
  .trim()
  .max(2000, "Use at most 2000 characters")
  .refine((v) => v === "" || isSafeHref(v), {
    message: "Use a web address (https://…), a path on your site (/…), mailto: or tel:",
  });
const fileId = z.string().trim().max(64, "Choose an image from your media library");
const markdown = (label: string) =>
  z.string({ message: `Write ${label}` }).max(20_000, "Use at most 20,000 characters");

export const HeroBlock = z
  .object({
    type: z.literal("hero"),
    heading: required("a heading", 120),
    text: optional("text", 400),
    imageId: fileId.nullish().transform((v) => v || null),
    ctaLabel: optional("a button label", 40),
    ctaHref: href.optional().transform((v) => v ?? ""),
  })
  .superRefine((b, ctx) => {
    if (b.ctaLabel && !b.ctaHref)
      ctx.addIssue({ code: "custom", path: ["ctaHref"], message: "Say where the button goes" });
    if (b.ctaHref && !b.ctaLabel) ctx.addIssue({ code: "custom", path: ["ctaLabel"], message: "Label the button" });
  });

export const RichTextBlock = z.object({
  type: z.literal("richText"),
  markdown: markdown("the text").refine((v) => v.trim().length > 0, "Write the text, or remove the block"),
});

export const ImageBlock = z.object({
  type: z.literal("image"),
  imageId: fileId.min(1, "Choose an image from your media library"),
  caption: optional("a caption", 200),
});

export const GalleryBlock = z.object({
  type: z.literal("gallery"),
  imageIds: z
    .array(fileId)
    .min(1, "Choose at least one image")
    .max(MAX_GALLERY_IMAGES, `Choose at most ${MAX_GALLERY_IMAGES} images`),
});

export const CtaBlock = z.object({
  type: z.literal("cta"),
  heading: required("a heading", 120),
  text: optional("text", 400),
  label: required("a button label", 40),
  href: href.refine((v) => v !== "", "Say where the button goes"),
});

export const FaqItem = z.object({
  question: required("the question", 200),
  answer: markdown("the answer").refine((v) => v.trim().length > 0, "Write the answer"),
});

export const FaqBlock = z.object({
  type: z.literal("faq"),
  heading: optional("a heading", 120),
  items: z.array(FaqItem).min(1, "Add at least one question").max(MAX_FAQ_ITEMS, `Use at most ${MAX_FAQ_ITEMS}`),
});

export const ContactFormBlock = z.object({
  type: z.literal("contactForm"),
  heading: optional("a heading", 120),
  intro: optional("an introduction", 400),
});

export const BlockInput = z.discriminatedUnion("type", [
  HeroBlock,
  RichTextBlock,
  ImageBlock,
  GalleryBlock,
  CtaBlock,
  FaqBlock,
  ContactFormBlock,
]);
export type BlockInput = z.output<typeof BlockInput>;

export const PAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const PageSlug = z
  .string({ message: "Enter the page's address" })
  .trim()
  .toLowerCase()
  .min(1, "Enter the page's address")
  .max(60, "Use at most 60 characters")
  .regex(PAGE_SLUG_PATTERN, "Use lowercase letters, digits and single hyphens, like our-story");

export const PageTitle = z
  .string({ message: "Give the page a title" })
  .trim()
  .min(1, "Give the page a title")
  .max(120, "Use at most 120 characters");

export const PageDescription = z
  .string()
  .trim()
  .max(300, "Use at most 300 characters")
  .optional()
  .transform((v) => v ?? "");

/** A draft as the console and the API send it. */
export const PageDraftInput = z.object({
  title: PageTitle,
  slug: PageSlug,
  description: PageDescription,
  blocks: z.array(BlockInput).max(MAX_BLOCKS, `A page holds at most ${MAX_BLOCKS} blocks`),
});
export type PageDraftInput = z.output<typeof PageDraftInput>;

export const NewPageInput = z.object({
  title: PageTitle,
  slug: PageSlug.optional(),
  description: PageDescription,
  /** Add the page to the site's header navigation (default: yes). */
  inNavigation: z.boolean().optional(),
});
export type NewPageInput = z.output<typeof NewPageInput>;

/** A block as stored: its input, plus the sanitised HTML of its Markdown. */
export type RenderedBlock =
  | Exclude<BlockInput, { type: "richText" } | { type: "faq" }>
  | (z.output<typeof RichTextBlock> & { html: string })
  | (Omit<z.output<typeof FaqBlock>, "items"> & {
      items: (z.output<typeof FaqItem> & { answerHtml: string })[];
    });

/** What a draft, a published copy and a revision hold. */
export interface PageContent {
  title: string;
  description: string;
  blocks: RenderedBlock[];
}

/** An image as the block renderer shows it: addresses made on the server, nothing to compute in the page. */
export interface PublicImage {
  src: string;
  srcSet?: string;
  width: number | null;
  height: number | null;
  alt: string;
}

export type PublicImages = Record<string, PublicImage>;

/** The file ids a page's blocks show, for one query to the media library. */
export function imageIdsOf(blocks: readonly (BlockInput | RenderedBlock)[]): string[] {
  const ids: string[] = [];
  for (const block of blocks) {
    if ((block.type === "hero" || block.type === "image") && block.imageId) ids.push(block.imageId);
    if (block.type === "gallery") ids.push(...block.imageIds);
  }
  return [...new Set(ids)];
}

/** A new, empty block of `type`, as the editor adds it (not yet valid: the operator fills it in). */
export function emptyBlock(type: BlockType): Record<string, unknown> {
  switch (type) {
    case "hero":
      return { type, heading: "", text: "", imageId: "", ctaLabel: "", ctaHref: "" };
    case "richText":
      return { type, markdown: "" };
    case "image":
      return { type, imageId: "", caption: "" };
    case "gallery":
      return { type, imageIds: [] };
    case "cta":
      return { type, heading: "", text: "", label: "", href: "" };
    case "faq":
      return { type, heading: "", items: [] };
    case "contactForm":
      return { type, heading: "Write to us", intro: "" };
  }
}

/** A slug from a title: "Our story & team" → "our-story-team". */
export function slugify(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
}
