/**
 * The page editor's form (ADR 017), which works without JavaScript: every block's fields are named by their
 * path (`blocks.2.heading`, `blocks.4.items.1.answer`, `blocks.3.imageIds.<fileId>` for a gallery's checked
 * images), so a zod issue's path is the name of the field it belongs to. Adding, moving and removing blocks
 * are submit buttons that only change the draft on the page; Save and Publish validate and store it.
 * Plain data, no server imports: the editor route and the preview route read the same form.
 */
import { invalid, issuesOf } from "~/lib/errors";
import {
  BLOCK_TYPES,
  MAX_BLOCKS,
  MAX_FAQ_ITEMS,
  MAX_GALLERY_IMAGES,
  PageDraftInput,
  emptyBlock,
  type BlockInput,
  type BlockType,
} from "./blocks";

export type FormValues = Record<string, string>;

/** A draft as typed: strings as they came, possibly invalid (shown again beside its errors). */
export interface DraftForm {
  title: string;
  slug: string;
  description: string;
  blocks: Record<string, unknown>[];
}

/**
 * The indices under `prefix` (`blocks.` → 0, 1, 4…), in order, at most `max` of them. A form is the client's to
 * write: one past the limit is kept (so validation names the limit), the rest are never read, and reading a
 * posted form stays linear in its size however many indices it makes up.
 */
function indices(values: FormValues, prefix: string, max: number): number[] {
  const found = new Set<number>();
  const pattern = new RegExp(`^${prefix.replace(/\./g, "\\.")}(\\d{1,6})\\.`);
  for (const key of Object.keys(values)) {
    const match = pattern.exec(key);
    if (match) found.add(Number(match[1]));
  }
  return [...found].sort((a, b) => a - b).slice(0, max + 1);
}

function blockFromForm(values: FormValues, i: number): Record<string, unknown> | null {
  const at = (name: string) => values[`blocks.${i}.${name}`];
  const type = at("type") as BlockType | undefined;
  if (!type || !BLOCK_TYPES.includes(type)) return null;
  const text = (name: string) => at(name) ?? "";
  switch (type) {
    case "hero":
      return {
        type,
        heading: text("heading"),
        text: text("text"),
        imageId: text("imageId"),
        ctaLabel: text("ctaLabel"),
        ctaHref: text("ctaHref"),
      };
    case "richText":
      return { type, markdown: text("markdown") };
    case "image":
      return { type, imageId: text("imageId"), caption: text("caption") };
    case "gallery": {
      const prefix = `blocks.${i}.imageIds.`;
      // Checked boxes, in the order the page listed them (`order` keeps the operator's order across posts).
      // At most one past the limit (validation then names it), and each id's place looked up once.
      const checked = Object.keys(values)
        .filter((k) => k.startsWith(prefix) && values[k] === "on")
        .map((k) => k.slice(prefix.length))
        .slice(0, MAX_GALLERY_IMAGES + 1);
      const order = new Map<string, number>();
      for (const id of (at("order") ?? "").split(",")) if (id && !order.has(id)) order.set(id, order.size);
      checked.sort((a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity));
      return { type, imageIds: checked };
    }
    case "cta":
      return { type, heading: text("heading"), text: text("text"), label: text("label"), href: text("href") };
    case "faq": {
      const items = indices(values, `blocks.${i}.items.`, MAX_FAQ_ITEMS)
        .map((j) => ({ question: text(`items.${j}.question`), answer: text(`items.${j}.answer`) }))
        // The editor always offers one empty question to fill in; an untouched one is not part of the draft.
        .filter((item) => item.question.trim() !== "" || item.answer.trim() !== "");
      return { type, heading: text("heading"), items };
    }
    case "contactForm":
      return { type, heading: text("heading"), intro: text("intro") };
  }
}

export function draftFromForm(values: FormValues): DraftForm {
  return {
    title: values.title ?? "",
    slug: values.slug ?? "",
    description: values.description ?? "",
    blocks: indices(values, "blocks.", MAX_BLOCKS).flatMap((i) => {
      const block = blockFromForm(values, i);
      return block ? [block] : [];
    }),
  };
}

/** The form's shape for stored blocks: null image → "". */
export function draftOfBlocks(
  page: { title: string; slug: string; description: string },
  blocks: readonly BlockInput[],
): DraftForm {
  return {
    title: page.title,
    slug: page.slug,
    description: page.description,
    blocks: blocks.map((b) => (b.type === "hero" ? { ...b, imageId: b.imageId ?? "" } : { ...b })),
  };
}

/**
 * An editing step that does not save: `add-block`, `up:i`, `down:i`, `remove:i`. Null when `intent` is none
 * of them.
 */
export function editDraft(intent: string, values: FormValues): DraftForm | null {
  const [verb, index] = intent.split(":");
  if (!["add-block", "up", "down", "remove"].includes(verb ?? "")) return null;
  const draft = draftFromForm(values);
  const i = Number(index);
  if (verb === "add-block") {
    const type = values.newBlockType as BlockType;
    if (BLOCK_TYPES.includes(type) && draft.blocks.length < MAX_BLOCKS) draft.blocks.push(emptyBlock(type));
  } else if (verb === "remove" && draft.blocks[i]) {
    draft.blocks.splice(i, 1);
  } else if (verb === "up" && i > 0 && draft.blocks[i]) {
    [draft.blocks[i - 1], draft.blocks[i]] = [draft.blocks[i]!, draft.blocks[i - 1]!];
  } else if (verb === "down" && draft.blocks[i + 1]) {
    [draft.blocks[i], draft.blocks[i + 1]] = [draft.blocks[i + 1]!, draft.blocks[i]!];
  }
  return draft;
}

/** The draft, validated: a refusal names each field by its form name. */
export function parseDraft(draft: DraftForm): PageDraftInput {
  const parsed = PageDraftInput.safeParse(draft);
  if (!parsed.success) throw invalid("Check the highlighted fields", issuesOf(parsed.error));
  return parsed.data;
}
