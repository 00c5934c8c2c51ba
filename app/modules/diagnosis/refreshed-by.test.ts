import { describe, expect, it } from "vitest";
import { FAMILIES_BY_TAG_KIND, TAG_KINDS, cacheTags } from "~/modules/cache/tags";
import { CONSOLE_PAGES_BY_TAG_KIND, refreshersOf } from "./refreshed-by";

describe("refreshersOf", () => {
  it("names a console page that purges every kind of tag, and the contract's families", () => {
    for (const kind of [...TAG_KINDS, "workspace"] as const) {
      expect(CONSOLE_PAGES_BY_TAG_KIND[kind].length, kind).toBeGreaterThan(0);
      for (const page of CONSOLE_PAGES_BY_TAG_KIND[kind])
        expect(page.path, kind).toMatch(/^\/(settings|website|discovery|shop|scheduling)/);
    }
    const [branding] = refreshersOf([cacheTags.branding("w1")]);
    expect(branding).toMatchObject({
      kind: "branding",
      label: "Branding",
      families: [...FAMILIES_BY_TAG_KIND.branding],
    });
  });

  it("names a page by its title and links its editor; a file by its name", () => {
    const names = new Map([
      ["p1", "About us"],
      ["f1", "logo.png"],
    ]);
    const [page, file, media] = refreshersOf(
      [cacheTags.page("w1", "p1"), cacheTags.media("w1", "f1"), cacheTags.media("w1")],
      names,
    );
    expect(page).toMatchObject({
      label: "Page 'About us'",
      id: "p1",
      families: ["pages"],
      consolePages: [{ path: "/website/pages/p1" }],
    });
    expect(file).toMatchObject({ label: "File 'logo.png'", families: ["media"] });
    expect(media).toMatchObject({ label: "Media", id: null });
  });

  it("lists a tag outside the vocabulary as it is, with nothing known to purge it", () => {
    expect(refreshersOf(["cdn:whatever"])).toEqual([
      { tag: "cdn:whatever", kind: "workspace", id: null, label: "cdn:whatever", families: [], consolePages: [] },
    ]);
  });
});
