import { describe, expect, it } from "vitest";
import { MAX_BLOCKS, MAX_FAQ_ITEMS, MAX_GALLERY_IMAGES } from "./blocks";
import { draftFromForm, parseDraft, type FormValues } from "./page-form";

const base: FormValues = { title: "Visit", slug: "visit", description: "" };

describe("draftFromForm, given a form far past the limits", () => {
  it("reads one block past the limit, so validation names the limit", () => {
    const values: FormValues = { ...base };
    for (let i = 0; i < 5_000; i++) {
      values[`blocks.${i}.type`] = "richText";
      values[`blocks.${i}.markdown`] = "Hello";
    }
    const draft = draftFromForm(values);
    expect(draft.blocks).toHaveLength(MAX_BLOCKS + 1);
    expect(() => parseDraft(draft)).toThrow(expect.objectContaining({ kind: "invalid" }));
  });

  it("reads one question and one gallery image past the limit", () => {
    const values: FormValues = { ...base, "blocks.0.type": "faq", "blocks.1.type": "gallery" };
    const ids: string[] = [];
    for (let j = 0; j < 5_000; j++) {
      values[`blocks.0.items.${j}.question`] = `Q${j}`;
      values[`blocks.0.items.${j}.answer`] = "A";
      const id = `01J${String(j).padStart(10, "0")}`;
      values[`blocks.1.imageIds.${id}`] = "on";
      ids.push(id);
    }
    values["blocks.1.order"] = ids.reverse().join(",");
    const [faq, gallery] = draftFromForm(values).blocks as [{ items: unknown[] }, { imageIds: string[] }];
    expect(faq.items).toHaveLength(MAX_FAQ_ITEMS + 1);
    expect(gallery.imageIds).toHaveLength(MAX_GALLERY_IMAGES + 1);
  });

  it("keeps the gallery's order as the page listed it", () => {
    const draft = draftFromForm({
      ...base,
      "blocks.0.type": "gallery",
      "blocks.0.imageIds.a": "on",
      "blocks.0.imageIds.b": "on",
      "blocks.0.imageIds.c": "on",
      "blocks.0.order": "c,a,b",
    });
    expect(draft.blocks[0]).toEqual({ type: "gallery", imageIds: ["c", "a", "b"] });
  });
});
