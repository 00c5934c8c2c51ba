import { describe, expect, it } from "vitest";
import { svgSizeProblem } from "~/modules/files/inspect.server";
import type { MediaItem } from "~/modules/files/media.server";
import type { BlobStore } from "~/modules/files/storage.server";
import { ByteLru, createLogoRasters, createOgImageCache, LOGO_BOX, OgImageBusy } from "./og-image.server";
import { rasteriseSvg, SvgRefused } from "./render.server";
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

describe("fairness and admission", () => {
  /** A render that waits for its release, and records when it started. */
  function gated(started: string[], name: string) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const render = async () => {
      started.push(name);
      await gate;
      return Buffer.from(name);
    };
    return { render, release };
  }

  it("caps one site's waiting renders, leaving room for the others, and serves sites in turn", async () => {
    const cache = createOgImageCache(1024, 1, 64, 2);
    const started: string[] = [];
    const a1 = gated(started, "a1");
    const a2 = gated(started, "a2");
    const a3 = gated(started, "a3");
    const b1 = gated(started, "b1");
    const running = cache.get("a1", a1.render, { group: "a" });
    const waiting = [cache.get("a2", a2.render, { group: "a" }), cache.get("a3", a3.render, { group: "a" })];
    await expect(cache.get("a4", async () => Buffer.from("a4"), { group: "a" })).rejects.toBeInstanceOf(OgImageBusy);
    const other = cache.get("b1", b1.render, { group: "b" });
    for (const gate of [a1, a2, b1, a3]) gate.release();
    await Promise.all([running, ...waiting, other]);
    // b1 came after a2 and a3, yet had its turn before a3.
    expect(started).toEqual(["a1", "a2", "b1", "a3"]);
  });

  it("asks admission only before a render, never for a cached image", async () => {
    const cache = createOgImageCache(1024);
    let asked = 0;
    const admit = async () => {
      asked++;
    };
    await cache.get("k", async () => Buffer.from("png"), { group: "a", admit });
    await cache.get("k", async () => Buffer.from("png"), { group: "a", admit });
    expect(asked).toBe(1);
    const refuse = async () => {
      throw new Error("limited");
    };
    await expect(cache.get("new", async () => Buffer.from("png"), { group: "a", admit: refuse })).rejects.toThrow(
      "limited",
    );
    expect(cache.renders).toBe(1);
  });
});

const svgOf = (attributes: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" ${attributes}><rect width="100%" height="100%" fill="#c00"/></svg>`,
  );

describe("rasteriseSvg", () => {
  it("fits a logo inside the box, scaled from both sides", () => {
    const { png, width, height } = rasteriseSvg(svgOf('width="200" height="100"'), LOGO_BOX);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect({ width, height }).toEqual({ width: 480, height: 240 });
    // Wide: bounded by the box's width, not scaled to its height (which would be 9,600 px wide).
    const wide = rasteriseSvg(svgOf('viewBox="0 0 4000 100"'), LOGO_BOX);
    expect(wide.width).toBeLessThanOrEqual(LOGO_BOX.width);
    expect(wide.height).toBeLessThanOrEqual(LOGO_BOX.height);
    expect(wide).toMatchObject({ width: 840, height: 21 });
    const tall = rasteriseSvg(svgOf('width="100" height="1000"'), LOGO_BOX);
    expect({ width: tall.width, height: tall.height }).toEqual({ width: 24, height: 240 });
  });

  // Sizes refused before anything is drawn; small enough that even drawn they would cost little.
  it("refuses an SVG whose own size is absurd, without drawing it", () => {
    expect(() => rasteriseSvg(svgOf('width="10001" height="1000"'), LOGO_BOX)).toThrow(SvgRefused);
    expect(() => rasteriseSvg(svgOf('viewBox="0 0 5100 100"'), LOGO_BOX)).toThrow(SvgRefused);
  });
});

describe("svgSizeProblem", () => {
  it("takes logos and refuses a side past 10,000 or proportions past 50:1", () => {
    expect(svgSizeProblem(4000, 100)).toBeNull();
    expect(svgSizeProblem(0, 0)).toBeNull();
    expect(svgSizeProblem(4_000_000, 10)).toMatch(/at most 10,000/);
    expect(svgSizeProblem(10, 4_000_000)).toMatch(/at most 10,000/);
    expect(svgSizeProblem(5100, 100)).toMatch(/more than 50 times/);
  });
});

describe("logo rasters", () => {
  const item = (sha256: string): MediaItem =>
    ({ id: sha256, sha256, contentType: "image/svg+xml", width: null, height: null }) as unknown as MediaItem;
  const storeOf = (blobs: Record<string, Buffer>) =>
    ({ get: async (key: string) => blobs[key.replace("originals/", "")] ?? null }) as unknown as BlobStore;

  it("rasterises an SVG logo once per file, whatever the titles", async () => {
    const logos = createLogoRasters(1024 * 1024);
    const store = storeOf({ ["a".repeat(64)]: svgOf('viewBox="0 0 4000 100"') });
    const first = await logos.of(store, item("a".repeat(64)));
    const second = await logos.of(store, item("a".repeat(64)));
    expect(first).toMatchObject({ width: 840, height: 21 });
    expect(second).toEqual(first);
    expect(logos.rasterised).toBe(1);
  });

  it("draws the image without a logo stored before uploads refused absurd sizes", async () => {
    const logos = createLogoRasters(1024 * 1024);
    const store = storeOf({ ["b".repeat(64)]: svgOf('width="20000" height="100"') });
    expect(await logos.of(store, item("b".repeat(64)))).toBeNull();
    expect(await logos.of(store, item("b".repeat(64)))).toBeNull();
    expect(logos.rasterised).toBe(1);
  });
});
