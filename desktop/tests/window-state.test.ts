import { describe, expect, it } from "vitest";
import { DEFAULT_SIZE, initialBounds, MIN_SIZE } from "../src/main/window-state";

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const leftMonitor = { x: -1920, y: 0, width: 1920, height: 1050 };

describe("window geometry", () => {
  it("opens at the default size the first time", () => {
    expect(initialBounds(undefined, [laptop])).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });

  it("restores position, size and maximized state when the window is still on a display", () => {
    const saved = { x: -1500, y: 100, width: 1200, height: 800, maximized: true };
    expect(initialBounds(saved, [laptop, leftMonitor])).toEqual(saved);
  });

  it("keeps the size but lets the window be placed anew when its monitor is gone", () => {
    const saved = { x: -1500, y: 100, width: 1200, height: 800, maximized: false };
    expect(initialBounds(saved, [laptop])).toEqual({ width: 1200, height: 800, maximized: false });
  });

  it("does not trust a title bar that only grazes the display, or one above it", () => {
    expect(initialBounds({ x: 1420, y: 10, width: 900, height: 700, maximized: false }, [laptop])).not.toHaveProperty(
      "x",
    );
    expect(initialBounds({ x: 100, y: -50, width: 900, height: 700, maximized: false }, [laptop])).not.toHaveProperty(
      "x",
    );
  });

  it("never restores a window smaller than the minimum", () => {
    expect(initialBounds({ x: 10, y: 10, width: 100, height: 50, maximized: false }, [laptop])).toEqual({
      x: 10,
      y: 10,
      ...MIN_SIZE,
      maximized: false,
    });
  });
});
