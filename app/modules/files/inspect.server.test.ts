import { describe, expect, it } from "vitest";
import { pixelProblem } from "./inspect.server";

describe("pixelProblem", () => {
  it("takes photos and short animations", () => {
    expect(pixelProblem({ width: 6000, height: 4000 })).toBeNull();
    expect(pixelProblem({ width: 480, height: 480 * 120, pageHeight: 480, pages: 120 })).toBeNull();
  });

  it("refuses a frame past 50 megapixels", () => {
    expect(pixelProblem({ width: 10_000, height: 10_000 })).toMatch(/larger than 50 megapixels/);
  });

  it("refuses an animation whose frames add up to a decompression bomb, each frame small enough", () => {
    expect(pixelProblem({ width: 4000, height: 4000 * 500, pageHeight: 4000, pages: 500 })).toMatch(
      /too many large frames/,
    );
  });
});
