import type { RenderedBlock } from "~/modules/sites/blocks";

type Faq = Extract<RenderedBlock, { type: "faq" }>;

/** Questions that open to their answers with `<details>`: no JavaScript, and the browser's find-in-page opens them. */
export function FaqBlock({ block }: { block: Faq }) {
  return (
    <section className="block block-faq">
      <div className="block-inner block-faq__inner">
        {block.heading ? <h2 className="block-faq__heading">{block.heading}</h2> : null}
        <div className="block-faq__list">
          {block.items.map((item, i) => (
            <details key={i} className="block-faq__item">
              <summary>{item.question}</summary>
              {/* Sanitised when saved, like a rich-text block. */}
              <div className="block-prose" dangerouslySetInnerHTML={{ __html: item.answerHtml }} />
            </details>
          ))}
        </div>
      </div>
    </section>
  );
}
