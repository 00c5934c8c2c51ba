/**
 * The assistant's website tool (ADR 037): drafts a page — never publishes one. The draft is a page like any other
 * made in the console (its own address, out of the navigation until it is published), so the operator reviews it in
 * the page editor and publishes it there.
 */
import { z } from "zod";
import { defineTool, mentions } from "~/modules/chat/tools";
import { PageTitle } from "./blocks";
import { pagesOf } from "./pages.server";

export const draftPage = defineTool({
  name: "draft_page",
  description:
    "Creates a DRAFT page (never published) with a title and Markdown text, for the operator to review and publish in the page editor.",
  input: z.object({
    title: PageTitle.describe("The page's title"),
    markdown: z.string().trim().max(20_000).optional().describe("The page's text in Markdown; an outline is fine"),
  }),
  audience: ["operator"],
  role: "editor",
  writes: true,
  tiers: ["pro", "enterprise"],
  match(ask) {
    if (!mentions(ask.plain, "draft", "write", "create", "make", "start", "add") || !mentions(ask.plain, "page"))
      return null;
    const quoted = /[“"']([^“”"']{2,80})[”"']/.exec(ask.text)?.[1];
    const about = /\b(?:called|titled|named|about|for|on)\s+(?:our\s+|the\s+|a\s+)?([^.?!,;]{2,80})/i.exec(
      ask.text,
    )?.[1];
    const title = (quoted ?? about)?.trim();
    if (!title) return null;
    return { score: 0.9, input: { title: title.replace(/^./, (c) => c.toUpperCase()) } };
  },
  async run(context, { title, markdown }) {
    const caller = context.caller;
    const userId = caller.kind === "operator" ? caller.userId : null;
    const text =
      markdown ||
      [
        `## ${title}`,
        "",
        "Write a short introduction here.",
        "",
        "## What to know",
        "",
        "- First point",
        "- Second point",
      ].join("\n");
    const page = await pagesOf(context.services.db, context.workspace.id).create(
      { userId, ip: null },
      { title, description: "", inNavigation: false },
      [{ type: "richText", markdown: text }],
    );
    const url = context.consoleUrl(`/website/pages/${page.id}`);
    return {
      output: { page: { id: page.id, title: page.title, slug: page.slug, status: "draft", url } },
      answer: `I drafted the page “${page.title}” at /${page.slug}. It is not published: review it and publish it from the page editor (${url}).`,
      sources: [],
    };
  },
});

export const sitesChatTools = [draftPage];
