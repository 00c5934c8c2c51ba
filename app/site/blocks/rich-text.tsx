import type { RenderedBlock } from "~/modules/sites/blocks";

type RichText = Extract<RenderedBlock, { type: "richText" }>;

/**
 * Markdown, as HTML rendered and sanitised when the page was saved (markdown.server.ts: no raw HTML, an
 * allowlist of tags and link schemes), so setting it here adds nothing a visitor could run.
 */
export function RichTextBlock({ block }: { block: RichText }) {
  return (
    <section className="block block-text">
      <div className="block-inner block-prose" dangerouslySetInnerHTML={{ __html: block.html }} />
    </section>
  );
}
