/**
 * Draws a site's share image (ADR 022): markup objects laid out by satori into SVG, rasterised by resvg into a
 * 1200×630 PNG, the size Open Graph and X's large card both show uncropped. No JSX: satori takes the same
 * `{ type, props }` objects React would build, which keeps this file plain TypeScript on the server.
 *
 * The font is Inter from `@fontsource/inter`, its `.woff` files (satori reads TTF/OTF/WOFF, not WOFF2),
 * found through `require.resolve` so the path is right from the source tree and from the production build.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import satori from "satori";
import { svgSizeProblem } from "~/modules/files/inspect.server";

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

export interface OgImageInput {
  siteName: string;
  /** Already trimmed and cut to length (`ogTitle`). */
  title: string;
  /** `#rrggbb`: the background. */
  brand: string;
  /** `#rrggbb`: readable on `brand`. */
  text: string;
  /** `#rrggbb`: the brand's accent, for the rule beside the name (the text colour when it would not show). */
  accent: string;
  /** A PNG or JPEG as a data URL, with its size, or null. */
  logo: { dataUrl: string; width: number; height: number } | null;
}

const require = createRequire(import.meta.url);

type Weight = 400 | 700;
let fonts: { name: string; data: Buffer; weight: Weight; style: "normal" }[] | undefined;

function loadFonts() {
  fonts ??= ([400, 700] as const).map((weight) => ({
    name: "Inter",
    data: readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`)),
    weight,
    style: "normal" as const,
  }));
  return fonts;
}

interface Node {
  type: string;
  props: Record<string, unknown> & { style?: Record<string, string | number>; children?: unknown };
}

const el = (type: string, style: Record<string, string | number>, children?: unknown, extra = {}): Node => ({
  type,
  props: { style, children, ...extra },
});

/** Long titles get a smaller size so two or three lines fit above the site's name. */
function titleSize(title: string): number {
  if (title.length <= 40) return 76;
  if (title.length <= 80) return 62;
  return 50;
}

function markup(input: OgImageInput): Node {
  const { logo } = input;
  const logoHeight = logo ? Math.min(120, logo.height) : 0;
  const logoWidth = logo ? Math.min(420, Math.round((logo.width / logo.height) * logoHeight)) : 0;
  const header: Node[] = [];
  if (logo) {
    header.push(
      el("img", { objectFit: "contain", borderRadius: 12 }, undefined, {
        src: logo.dataUrl,
        width: logoWidth,
        height: logoHeight,
      }),
    );
  }
  return el(
    "div",
    {
      width: OG_WIDTH,
      height: OG_HEIGHT,
      display: "flex",
      flexDirection: "column",
      justifyContent: "space-between",
      padding: "72px 80px",
      backgroundColor: input.brand,
      color: input.text,
      fontFamily: "Inter",
    },
    [
      el("div", { display: "flex", alignItems: "center", minHeight: 120 }, header),
      el(
        "div",
        {
          display: "flex",
          fontSize: titleSize(input.title),
          fontWeight: 700,
          lineHeight: 1.15,
          letterSpacing: "-0.02em",
          // Satori clamps with an ellipsis past three lines, for titles that are long in width, not characters.
          lineClamp: 3,
        },
        input.title,
      ),
      // The name under a title that is the name itself would say it twice.
      el(
        "div",
        { display: "flex", alignItems: "center", fontSize: 32, fontWeight: 400, opacity: 0.9, minHeight: 40 },
        input.title === input.siteName
          ? []
          : [
              el("div", { width: 56, height: 8, backgroundColor: input.accent, marginRight: 22, borderRadius: 4 }),
              input.siteName,
            ],
      ),
    ],
  );
}

export async function renderOgImage(input: OgImageInput): Promise<Buffer> {
  // satori's types want a ReactNode; the `{ type, props }` objects are what JSX would have produced.
  const svg = await satori(markup(input) as unknown as Parameters<typeof satori>[0], {
    width: OG_WIDTH,
    height: OG_HEIGHT,
    fonts: loadFonts(),
  });
  const png = new Resvg(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } }).render().asPng();
  return png;
}

/** Thrown for an SVG whose own size is absurd (`svgSizeProblem`): it is never rasterised. */
export class SvgRefused extends Error {}

/**
 * An SVG logo as a PNG (resvg again: satori's own SVG support is partial), scaled to fit inside `box`: the scale
 * comes from both sides, so a wide logo is bounded by the box's width and a tall one by its height, and the
 * pixmap is never larger than the box. Its own size is read from the parsed document (cheap: nothing is drawn)
 * and refused when absurd, as uploads are, for logos stored before that check.
 */
export function rasteriseSvg(
  svg: Buffer,
  box: { width: number; height: number },
): { png: Buffer; width: number; height: number } {
  const options = { font: { loadSystemFonts: false } };
  const own = new Resvg(svg, options);
  const problem = svgSizeProblem(own.width, own.height);
  if (problem || !(own.width > 0) || !(own.height > 0)) throw new SvgRefused(problem ?? "The SVG has no size");
  const zoom = Math.min(box.width / own.width, box.height / own.height);
  // Rounding up can add a pixel past the box: the mode that pins the bounded side keeps it exact.
  const fitTo =
    box.width / own.width <= box.height / own.height
      ? ({ mode: "width", value: Math.max(1, Math.floor(own.width * zoom)) } as const)
      : ({ mode: "height", value: Math.max(1, Math.floor(own.height * zoom)) } as const);
  const rendered = new Resvg(svg, { ...options, fitTo }).render();
  return { png: rendered.asPng(), width: rendered.width, height: rendered.height };
}
