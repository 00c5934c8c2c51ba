import { describe, expect, it } from "vitest";
import { contrastRatio, formatRatio, normalizeHex, readableOn, textOn } from "./contrast";

describe("contrast", () => {
  it("computes WCAG ratios", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // WebAIM's checker: #767676 on white is 4.54:1.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it("rounds down when showing a ratio, so a failing pair never reads as passing", () => {
    expect(formatRatio(4.4999)).toBe("4.4:1");
    expect(formatRatio(21)).toBe("21.0:1");
  });

  it("normalises colours and refuses what is not one", () => {
    expect(normalizeHex(" #ABC ")).toBe("#aabbcc");
    expect(normalizeHex("#A1B2C3")).toBe("#a1b2c3");
    expect(normalizeHex("red")).toBeNull();
    expect(normalizeHex("#12345")).toBeNull();
  });

  it("picks the text colour that reads on a background", () => {
    expect(textOn("#ffd84d")).not.toBe("#ffffff");
    expect(textOn("#1f3a5f")).toBe("#ffffff");
    for (const bg of ["#ff0000", "#00ff00", "#0000ff", "#888888", "#c2410c"]) {
      expect(contrastRatio(textOn(bg), bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("darkens a too-light colour until it reads, and keeps one that already does", () => {
    expect(readableOn("#7a2e0e", "#fffaf3")).toBe("#7a2e0e");
    const link = readableOn("#ffd84d", "#ffffff");
    expect(contrastRatio(link, "#ffffff")).toBeGreaterThanOrEqual(4.5);
    const onDark = readableOn("#333333", "#101010");
    expect(contrastRatio(onDark, "#101010")).toBeGreaterThanOrEqual(4.5);
  });
});
