import { describe, expect, it } from "vitest";
import type { Db } from "~db/client";
import { cleanFilename } from "./files.server";
import { sizeLabel } from "./inspect.server";
import { uploadBodyLimit } from "./upload.server";
import { findFileUses, registerFileUsage } from "./usage.server";

describe("where a file is used", () => {
  it("asks every registered finder, for the given workspace and file only", async () => {
    const asked: string[] = [];
    registerFileUsage("pages", async (_db, workspaceId, fileId) => {
      asked.push(`${workspaceId}/${fileId}`);
      return [{ label: "Page “About” (hero)", href: "/website/pages/p1" }];
    });
    registerFileUsage("branding", async () => [{ label: "Logo", href: "/website/branding" }]);
    const uses = await findFileUses({} as Db, "w1", "f1");
    expect(uses).toEqual([
      { label: "Page “About” (hero)", href: "/website/pages/p1" },
      { label: "Logo", href: "/website/branding" },
    ]);
    expect(asked).toEqual(["w1/f1"]);
    // Registering under the same name replaces (a module loaded twice in development does not double up).
    registerFileUsage("branding", async () => []);
    expect(await findFileUses({} as Db, "w1", "f1")).toHaveLength(1);
  });
});

describe("file names and sizes", () => {
  it("keeps the last segment of an uploaded name, printable and bounded", () => {
    expect(cleanFilename("C:\\Users\\me\\Pictures\\loaf.jpg")).toBe("loaf.jpg");
    expect(cleanFilename("../../etc/passwd")).toBe("passwd");
    expect(cleanFilename('my "best" <loaf>\u0000.png')).toBe("my best loaf.png");
    expect(cleanFilename("")).toBe("upload");
    expect(cleanFilename("a".repeat(500))).toHaveLength(200);
  });

  it("says sizes precisely enough to compare with the limit", () => {
    expect(sizeLabel(300 * 1024)).toBe("300 KB");
    expect(sizeLabel(5 * 1_048_576)).toBe("5 MB");
    expect(sizeLabel(5.25 * 1_048_576)).toBe("5.3 MB");
  });

  it("gives only the upload paths a larger body limit", () => {
    const env = { FILES_MAX_BYTES: 5_242_880, MAX_BODY_BYTES: 1_048_576 };
    expect(uploadBodyLimit("/website/media", env)).toBeGreaterThan(2 * 5_242_880);
    expect(uploadBodyLimit("/api/editor/branding/media", env)).toBeGreaterThan(2 * 5_242_880);
    expect(uploadBodyLimit("/api/editor/branding/media/01ABC", env)).toBeGreaterThan(2 * 5_242_880);
    expect(uploadBodyLimit("/shop/products/01ABC", env)).toBeGreaterThan(2 * 5_242_880);
    expect(uploadBodyLimit("/shop/import", env)).toBeGreaterThan(2 * 5_242_880);
    for (const path of [
      "/settings",
      "/api/editor/branding",
      "/website/media/extra/x",
      "/api/editor/pages",
      "/shop",
      "/shop/products/x/y",
    ]) {
      expect(uploadBodyLimit(path, env), path).toBeUndefined();
    }
  });
});
