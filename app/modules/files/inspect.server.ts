/**
 * What an upload is, decided from its bytes and never from its name or the browser's Content-Type: the
 * magic numbers (file-type) for raster images and icons, a parse for SVG. Only images pages can show are
 * accepted. What is kept is made safe first: an SVG goes through DOMPurify (loaded with jsdom on the first
 * SVG, so a server that never sees one never loads a DOM), and a photo's EXIF block (camera serial, GPS
 * position) is dropped by re-encoding it with its orientation applied.
 */
import { invalid } from "~/lib/errors";
import { ACCEPTED_LABEL } from "./accepted";

export { ACCEPTED_LABEL, ACCEPTED_TYPES } from "./accepted";

export interface InspectedFile {
  bytes: Uint8Array;
  contentType: string;
  width: number | null;
  height: number | null;
}

const refuse = (message: string) => invalid(message, [{ field: "file", message }]);

/** 300 KB, 4.8 MB, 5 MB: precise enough to compare a file with the limit. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1_048_576) return `${Math.ceil(bytes / 1024)} KB`;
  const mb = bytes / 1_048_576;
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** The raster types sharp can read (and so measure, strip and resize). */
const RASTER = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"]);

export async function inspectUpload(bytes: Uint8Array, maxBytes: number): Promise<InspectedFile> {
  if (bytes.byteLength === 0) throw refuse("Choose a file to upload: this one is empty");
  if (bytes.byteLength > maxBytes) {
    throw refuse(`This file is ${sizeLabel(bytes.byteLength)}; files may be at most ${sizeLabel(maxBytes)}`);
  }
  const { fileTypeFromBuffer } = await import("file-type");
  const sniffed = await fileTypeFromBuffer(bytes);
  let contentType = sniffed?.mime as string | undefined;
  if (contentType === "application/xml" || contentType === undefined) {
    if (looksLikeSvg(bytes)) return inspectSvg(bytes);
  }
  if (contentType === "image/vnd.microsoft.icon") contentType = "image/x-icon";
  if (contentType === "image/x-icon") return { bytes, contentType, ...icoSize(bytes) };
  if (!contentType || !RASTER.has(contentType)) {
    throw refuse(
      `This file is not an image we can show (${sniffed ? sniffed.ext.toUpperCase() : "unknown type"}). Upload ${ACCEPTED_LABEL}`,
    );
  }
  return inspectRaster(bytes, contentType);
}

async function inspectRaster(bytes: Uint8Array, contentType: string): Promise<InspectedFile> {
  const sharp = (await import("sharp")).default;
  let metadata;
  try {
    metadata = await sharp(bytes, { animated: contentType === "image/gif" }).metadata();
  } catch {
    throw refuse("This image is damaged or incomplete and cannot be read. Export it again and retry");
  }
  if (!metadata.width || !metadata.height) throw refuse("This image has no size and cannot be shown");
  const orientation = metadata.orientation ?? 1;
  const tooLarge = pixelProblem(metadata);
  if (tooLarge) throw refuse(tooLarge);
  const sideways = orientation >= 5;
  const width = sideways ? metadata.height : metadata.width;
  const height = sideways ? metadata.width : (metadata.pageHeight ?? metadata.height);
  if (!metadata.exif && !metadata.xmp && !metadata.iptc) return { bytes, contentType, width, height };
  // Re-encode with the orientation applied and no metadata (sharp drops EXIF, XMP and IPTC unless asked to
  // keep them); the colour profile stays so colours do not shift. The bytes change, so the hash is of these.
  const image = sharp(bytes, { animated: contentType === "image/gif" })
    .rotate()
    .keepIccProfile();
  const stripped =
    contentType === "image/jpeg"
      ? await image.jpeg({ quality: 90, mozjpeg: true }).toBuffer()
      : contentType === "image/png"
        ? await image.png().toBuffer()
        : contentType === "image/webp"
          ? await image.webp({ quality: 90 }).toBuffer()
          : contentType === "image/avif"
            ? await image.avif({ quality: 70 }).toBuffer()
            : await image.gif().toBuffer();
  return { bytes: new Uint8Array(stripped), contentType, width, height };
}

/** Pixels in one frame, and in all of an animation's frames, that an upload may have. */
export const MAX_FRAME_PIXELS = 50_000_000;
export const MAX_TOTAL_PIXELS = 200_000_000;

/**
 * Why an image's size is refused, or null. A few megapixels is every page's need; a decompression bomb (a
 * small file that decodes to gigabytes: a huge frame, or thousands of frames) is refused from its header,
 * before anything decodes it.
 */
export function pixelProblem(metadata: {
  width?: number;
  height?: number;
  pageHeight?: number;
  pages?: number;
}): string | null {
  const frame = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (frame > MAX_FRAME_PIXELS) return "This image is larger than 50 megapixels: scale it down and upload it again";
  if (frame * Math.max(1, metadata.pages ?? 1) > MAX_TOTAL_PIXELS) {
    return "This animation has too many large frames: make it smaller or shorter and upload it again";
  }
  return null;
}

function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096))
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
}

type Purifier = { sanitize(source: string, config: Record<string, unknown>): string };
let purifier: Promise<Purifier> | undefined;

/** DOMPurify over a jsdom window, made once on the first SVG. */
function svgPurifier(): Promise<Purifier> {
  return (purifier ??= Promise.all([import("dompurify"), import("jsdom")]).then(([dompurify, jsdom]) => {
    const { window } = new jsdom.JSDOM("");
    return dompurify.default(window as unknown as Parameters<typeof dompurify.default>[0]) as unknown as Purifier;
  }));
}

/**
 * An SVG is a document that can carry script, event handlers, links to `javascript:` and external
 * resources. It is kept only as DOMPurify's SVG profile leaves it (no script, no foreignObject, no handlers,
 * no external references); a file that loses markup that way is refused rather than silently changed, so
 * the operator knows what they uploaded is not what would be shown.
 */
async function inspectSvg(bytes: Uint8Array): Promise<InspectedFile> {
  const source = Buffer.from(bytes).toString("utf8");
  if (/<!ENTITY/i.test(source)) throw refuse("This SVG declares XML entities, which are not allowed");
  // Handlers also after a slash (`<svg/onload=…>`), and a backslash in CSS is refused: CSS escapes
  // (`u\\rl(…)`) would hide an external reference from the checks here and from DOMPurify alike.
  const hostile =
    /<script|[\s/]on[a-z]+\s*=|<style[^>]*>(?:(?!<\/style)[\s\S])*\\|style\s*=\s*("[^"]*\\|'[^']*\\)|javascript:|<foreignObject|<iframe|<embed|<object|@import|(xlink:)?href\s*=\s*["']?(?!["']?#)|url\(\s*["']?(?!["']?#)/i;
  if (hostile.test(source)) {
    throw refuse(
      "This SVG contains script, links or external references, which are not allowed. Export it as plain SVG or PNG",
    );
  }
  // Belt and braces: what passed the check above is still rewritten by DOMPurify's SVG profile.
  const purify = await svgPurifier();
  const clean = purify.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ["foreignObject", "script"],
  });
  if (!/<svg[\s>]/i.test(clean)) throw refuse("This SVG could not be read. Export it again and retry");
  const absurd = declaredSvgSizes(clean)
    .map(([width, height]) => svgSizeProblem(width, height))
    .find(Boolean);
  if (absurd) throw refuse(absurd);
  const cleaned = new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n${clean}`);
  return { bytes: cleaned, contentType: "image/svg+xml", ...svgSize(clean) };
}

/** The longest side and the widest aspect ratio an SVG may declare (ADR 022: the share image's logo). */
export const SVG_MAX_SIDE = 10_000;
export const SVG_MAX_ASPECT = 50;

/**
 * Why an SVG's size is refused, or null. An SVG is drawn at whatever size it declares: the share image
 * rasterises a logo, and a 191-byte file declaring 4,000,000×10 once asked for a pixmap of gigabytes, which
 * took the whole server down. Logos, icons and illustrations are far inside these bounds.
 */
export function svgSizeProblem(width: number, height: number): string | null {
  if (width > SVG_MAX_SIDE || height > SVG_MAX_SIDE) {
    return `This SVG declares a size of ${Math.round(width)}×${Math.round(height)}: its sides may be at most ${SVG_MAX_SIDE.toLocaleString("en")}. Export it at a smaller size`;
  }
  // A side it does not declare (0) is drawn at the size it is given: no proportion to judge.
  if (width > 0 && height > 0 && Math.max(width / height, height / width) > SVG_MAX_ASPECT) {
    return `This SVG is ${Math.round(width)}×${Math.round(height)}, more than ${SVG_MAX_ASPECT} times longer than it is high or wide. Crop it, or export it at its real proportions`;
  }
  return null;
}

const NUMBER = String.raw`([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)`;

/** The sizes the root `<svg>` declares: its width and height (any unit, as numbers; 0 when absent), its viewBox's. */
function declaredSvgSizes(svg: string): Array<[number, number]> {
  const tag = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? "";
  const attr = (name: string) =>
    Number(new RegExp(String.raw`\s${name}\s*=\s*["']\s*${NUMBER}`, "i").exec(tag)?.[1] ?? 0);
  const sizes: Array<[number, number]> = [[attr("width"), attr("height")]];
  const box = new RegExp(
    String.raw`\sviewBox\s*=\s*["']\s*${NUMBER}[\s,]+${NUMBER}[\s,]+${NUMBER}[\s,]+${NUMBER}`,
    "i",
  ).exec(tag);
  if (box) sizes.push([Number(box[3]), Number(box[4])]);
  return sizes;
}

function svgSize(svg: string): { width: number | null; height: number | null } {
  const tag = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? "";
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']\\s*([\\d.]+)(px)?\\s*["']`, "i").exec(tag)?.[1];
  const width = attr("width");
  const height = attr("height");
  if (width && height) return { width: Math.round(Number(width)), height: Math.round(Number(height)) };
  const box = /\sviewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*["']/i.exec(tag);
  if (box) return { width: Math.round(Number(box[1])), height: Math.round(Number(box[2])) };
  return { width: null, height: null };
}

/** An ICO's first image's size (0 in the directory entry means 256). */
function icoSize(bytes: Uint8Array): { width: number | null; height: number | null } {
  if (bytes.byteLength < 8) return { width: null, height: null };
  return { width: bytes[6] || 256, height: bytes[7] || 256 };
}
