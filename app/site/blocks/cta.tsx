import type { RenderedBlock } from "~/modules/sites/blocks";

type Cta = Extract<RenderedBlock, { type: "cta" }>;

export function CtaBlock({ block }: { block: Cta }) {
  return (
    <section className="block block-cta">
      <div className="block-inner block-cta__inner">
        <div>
          <h2 className="block-cta__heading">{block.heading}</h2>
          {block.text ? <p className="block-cta__text">{block.text}</p> : null}
        </div>
        <p className="block-cta__action">
          <a className="site-button block-cta__button" href={block.href}>
            {block.label}
          </a>
        </p>
      </div>
    </section>
  );
}
