/**
 * Markdown written by operators (rich-text blocks, policies) to the HTML public pages show. Two layers, each a
 * well-kept library doing what it is best at: markdown-it parses with raw HTML turned off (so `<script>` in
 * the source is text, never markup) and refuses `javascript:`-style links itself; sanitize-html then keeps
 * only the elements and attributes Markdown produces, with web, mail and phone links only, whatever a parser
 * bug or plugin might let through. Rendering happens when content is saved or previewed, not per request.
 */
import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: true, breaks: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "br",
    "hr",
    "strong",
    "em",
    "s",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  // No `style`: the public pages' CSP refuses inline styles, so a column's alignment is the stylesheet's.
  allowedAttributes: { a: ["href", "title", "rel"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // The page's title is its only h1; a `#` heading in a block is a section of it.
    h1: "h2",
    h5: "h4",
    h6: "h4",
    // Links that leave the site do not hand it the opener or the referring page.
    a: (tagName, attribs) => {
      const external = /^https?:\/\//i.test(attribs.href ?? "");
      return { tagName, attribs: external ? { ...attribs, rel: "noopener noreferrer" } : attribs };
    },
  },
};

/** Sanitised HTML for `source` (Markdown). Images are not part of rich text: image blocks show them. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE);
}

/** Plain text of `source`, for meta descriptions and excerpts: no markup, whitespace collapsed. */
export function markdownToText(source: string, maxLength = 160): string {
  return plainText(sanitizeHtml(markdown.render(source), { allowedTags: [], allowedAttributes: {} }), maxLength);
}

/**
 * The text of HTML this module rendered (and sanitised) before, for a page's description on every request: its
 * tags dropped without parsing again, which only a renderer's own output allows.
 */
export function renderedToText(html: string, maxLength = 160): string {
  return plainText(html.replace(/<[^>]*>/g, " "), maxLength);
}

function plainText(escaped: string, maxLength: number): string {
  const text = escaped
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
  return text.length <= maxLength ? text : `${text.slice(0, maxLength - 1).trimEnd()}…`;
}
