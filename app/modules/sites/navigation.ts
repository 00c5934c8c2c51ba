/**
 * The navigation's shapes and input schema, shared by the console page, the editor API and the module
 * (navigation.server.ts). Plain data, no server imports.
 */
import { z } from "zod";
import { isSafeHref } from "./blocks";

export interface SiteLink {
  label: string;
  href: string;
}

export const NAV_AREAS = ["header", "footer"] as const;
export type NavArea = (typeof NAV_AREAS)[number];
export const MAX_LINKS_PER_AREA = 20;

export interface NavLinkView {
  id: string;
  area: NavArea;
  position: number;
  label: string;
  pageId: string | null;
  url: string | null;
  /** For a page link: whether the page is published (an unpublished page's link is hidden from the public). */
  pagePublished: boolean | null;
}

export const NavLabel = z.string().trim().min(1, "Enter the link's text").max(40, "Use at most 40 characters");

export const NavLinkInput = z
  .object({
    area: z.enum(NAV_AREAS, { message: "Choose the header or the footer" }),
    label: NavLabel,
    pageId: z
      .string()
      .trim()
      .optional()
      .transform((v) => v || null),
    url: z
      .string()
      .trim()
      .max(2000, "Use at most 2000 characters")
      .optional()
      .transform((v) => v || null),
  })
  .superRefine((link, ctx) => {
    if (!link.pageId && !link.url)
      ctx.addIssue({ code: "custom", path: ["pageId"], message: "Choose a page, or enter an address below" });
    if (link.pageId && link.url)
      ctx.addIssue({ code: "custom", path: ["url"], message: "Choose a page or enter an address, not both" });
    if (link.url && !isSafeHref(link.url))
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: "Use a web address (https://…), a path on your site (/…), mailto: or tel:",
      });
  });
export type NavLinkInput = z.output<typeof NavLinkInput>;
