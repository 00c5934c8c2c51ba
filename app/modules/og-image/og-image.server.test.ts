import { describe, expect, it } from "vitest";
import { ByteLru, createOgImageCache, OgImageBusy } from "./og-image.server";
import { rasteriseSvg } from "./render.server";
import { MAX_OG_TITLE, ogImagePath, ogImageVersion, ogTitle } from "./version";

describe("ogTitle", () => {
  it("collapses whitespace and keeps a short title as it is", () => {
    expect(ogTitle("  Fresh \n bread  ")).toBe("Fresh bread");
    expect(ogTitle(null)).toBe("");
  });

  it("cuts past 120 characters at a word, with an ellipsis", () => {
    const title = ogTitle("sourdough ".repeat(30));
    expect(title.length).toBeLessThanOrEqual(MAX_OG_TITLE);
    expect(title.endsWith("sourdough…")).toBe(true);
    const unbroken = ogTitle("x".repeat(500));
    expect(unbroken).toBe(`${"x".repeat(MAX_OG_TITLE - 1)}…`);
  });
});

describe("ogImageVersion", () => {
  it("changes with the theme, the logo's bytes and the name, not with where the files are addressed", () => {
    const logo = `/a/media/${"1".repeat(64)}-320.webp`;
    const base = ogImageVersion("/a/theme.css?v=abc", logo, "Bakery");
    expect(base).toMatch(/^[0-9a-f]{8}$/);
    expect(ogImageVersion("/theme.css?v=abc", `/media/${"1".repeat(64)}-320.webp`, "Bakery")).toBe(base);
    expect(ogImageVersion("/a/theme.css?v=abd", logo, "Bakery")).not.toBe(base);
    expect(ogImageVersion("/a/theme.css?v=abc", `/a/media/${"2".repeat(64)}.png`, "Bakery")).not.toBe(base);
    expect(ogImageVersion("/a/theme.css?v=abc", logo, "Bakery & Co")).not.toBe(base);
    expect(ogImagePath("Hello  world", base)).toBe(`/og-image?title=Hello+world&v=${base}`);
  });
});

describe("the image cache", () => {
  it("evicts the least recently used entries past its byte bound", () => {
    const lru = new ByteLru(10);
    lru.set("a", Buffer.alloc(4));
    lru.set("b", Buffer.alloc(4));
    lru.get("a");
    lru.set("c", Buffer.alloc(4));
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBeDefined();
    expect(lru.get("c")).toBeDefined();
    expect(lru.size).toBe(8);
    lru.set("huge", Buffer.alloc(11));
    expect(lru.get("huge")).toBeUndefined();
  });

  it("renders once for concurrent requests of the same image, and not again once cached", async () => {
    const cache = createOgImageCache(1024);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const render = async () => {
      await gate;
      return Buffer.from("png");
    };
    const both = Promise.all([cache.get("k", render), cache.get("k", render)]);
    release();
    const [a, b] = await both;
    expect(a).toBe(b);
    await cache.get("k", render);
    expect(cache.renders).toBe(1);
  });
});

it("refuses a render once its queue is full, and renders again once it drains", async () => {
  const cache = createOgImageCache(1024, 1, 1);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const slow = async () => {
    await gate;
    return Buffer.from("png");
  };
  const running = cache.get("a", slow);
  const waiting = cache.get("b", slow);
  await expect(cache.get("c", slow)).rejects.toBeInstanceOf(OgImageBusy);
  release();
  await Promise.all([running, waiting]);
  await expect(cache.get("c", slow)).resolves.toEqual(Buffer.from("png"));
});

describe("rasteriseSvg", () => {
  it("draws an SVG logo as a PNG of the asked height", () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#c00"/></svg>',
    );
    const { png, width, height } = rasteriseSvg(svg, 240);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect({ width, height }).toEqual({ width: 480, height: 240 });
  });
});
