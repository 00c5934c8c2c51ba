import type { PublicImages, RenderedBlock } from "~/modules/sites/blocks";
import { BlockImage } from "./image";

type Hero = Extract<RenderedBlock, { type: "hero" }>;

/** The page's opening: heading, a sentence, a button, and an image beside them (above the fold: not lazy). */
export function HeroBlock({ block, images, first }: { block: Hero; images: PublicImages; first: boolean }) {
  const image = block.imageId ? images[block.imageId] : undefined;
  const Heading = first ? "h1" : "h2";
  return (
    <section className={`block block-hero${image ? " block-hero--with-image" : ""}`}>
      <div className="block-inner block-hero__inner">
        <div className="block-hero__text">
          <Heading className="block-hero__heading">{block.heading}</Heading>
          {block.text ? <p className="block-hero__lead">{block.text}</p> : null}
          {block.ctaLabel && block.ctaHref ? (
            <p className="block-hero__actions">
              <a className="site-button" href={block.ctaHref}>
                {block.ctaLabel}
              </a>
            </p>
          ) : null}
        </div>
        {image ? (
          <div className="block-hero__media">
            <BlockImage image={image} sizes="(min-width: 60rem) 36rem, 100vw" eager={first} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
