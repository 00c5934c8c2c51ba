import type { PublicImage } from "~/modules/sites/blocks";

/**
 * One image of a block: the server made its addresses (variants by width) and gave its size, so the browser
 * reserves its box before the bytes arrive (no layout shift). Below the first screen it loads lazily.
 */
export function BlockImage({
  image,
  sizes,
  eager = false,
  className,
}: {
  image: PublicImage;
  sizes: string;
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      className={className}
      src={image.src}
      srcSet={image.srcSet}
      sizes={image.srcSet ? sizes : undefined}
      width={image.width ?? undefined}
      height={image.height ?? undefined}
      alt={image.alt}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  );
}
