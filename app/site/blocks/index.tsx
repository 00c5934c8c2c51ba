/**
 * The one block renderer (ADR 017): the public page, the home page and the console's draft preview all render
 * a page's content through `PageContentView`, so what an operator previews is what the public will see.
 * Pure presentation: images arrive with their addresses made on the server, Markdown as sanitised HTML.
 */
import type { PageContent, PublicImages, RenderedBlock } from "~/modules/sites/blocks";
import { ContactForm } from "~/site/contact-form";
import { CtaBlock } from "./cta";
import { FaqBlock } from "./faq";
import { GalleryBlock, ImageBlock } from "./figure";
import { HeroBlock } from "./hero";
import { RichTextBlock } from "./rich-text";

function Block({
  block,
  images,
  siteSlug,
  first,
}: {
  block: RenderedBlock;
  images: PublicImages;
  siteSlug: string;
  first: boolean;
}) {
  switch (block.type) {
    case "hero":
      return <HeroBlock block={block} images={images} first={first} />;
    case "richText":
      return <RichTextBlock block={block} />;
    case "image":
      return <ImageBlock block={block} images={images} />;
    case "gallery":
      return <GalleryBlock block={block} images={images} />;
    case "cta":
      return <CtaBlock block={block} />;
    case "faq":
      return <FaqBlock block={block} />;
    case "contactForm":
      return (
        <section className="block block-contact">
          <div className="block-inner block-contact__inner">
            <ContactForm siteSlug={siteSlug} heading={block.heading || undefined} intro={block.intro || undefined} />
          </div>
        </section>
      );
    default:
      return null;
  }
}

/**
 * A page: its blocks in order. A page that opens with a hero uses the hero's heading as its `<h1>`; any other
 * page gets a title header first, so every page has exactly one `<h1>`.
 */
export function PageContentView({
  content,
  images,
  siteSlug,
}: {
  content: PageContent;
  images: PublicImages;
  siteSlug: string;
}) {
  const opensWithHero = content.blocks[0]?.type === "hero";
  return (
    <div className="page-blocks">
      {opensWithHero ? null : (
        <header className="block page-title">
          <div className="block-inner">
            <h1>{content.title}</h1>
            {content.description ? <p className="page-title__lead">{content.description}</p> : null}
          </div>
        </header>
      )}
      {content.blocks.map((block, i) => (
        <Block key={i} block={block} images={images} siteSlug={siteSlug} first={i === 0} />
      ))}
    </div>
  );
}
