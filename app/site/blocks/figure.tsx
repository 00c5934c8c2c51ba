import type { PublicImages, RenderedBlock } from "~/modules/sites/blocks";
import { BlockImage } from "./image";

type ImageBlockData = Extract<RenderedBlock, { type: "image" }>;
type Gallery = Extract<RenderedBlock, { type: "gallery" }>;

export function ImageBlock({ block, images }: { block: ImageBlockData; images: PublicImages }) {
  const image = images[block.imageId];
  if (!image) return null;
  return (
    <section className="block block-image">
      <figure className="block-inner block-figure">
        <BlockImage image={image} sizes="(min-width: 64rem) 60rem, 100vw" />
        {block.caption ? <figcaption>{block.caption}</figcaption> : null}
      </figure>
    </section>
  );
}

export function GalleryBlock({ block, images }: { block: Gallery; images: PublicImages }) {
  const shown = block.imageIds.flatMap((id) => (images[id] ? [{ id, image: images[id] }] : []));
  if (shown.length === 0) return null;
  return (
    <section className="block block-gallery">
      <ul className="block-inner block-gallery__grid" role="list">
        {shown.map(({ id, image }, i) => (
          <li key={`${id}-${i}`}>
            <BlockImage image={image} sizes="(min-width: 64rem) 22rem, (min-width: 40rem) 50vw, 100vw" />
          </li>
        ))}
      </ul>
    </section>
  );
}
