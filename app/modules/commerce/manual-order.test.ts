import { describe, expect, it } from "vitest";
import { changedPositions, isMove, moveInOrder } from "./manual-order";

describe("moveInOrder", () => {
  const ids = ["a", "b", "c", "d"];
  it("moves one step up or down, and to either end", () => {
    expect(moveInOrder(ids, "c", "up")).toEqual(["a", "c", "b", "d"]);
    expect(moveInOrder(ids, "b", "down")).toEqual(["a", "c", "b", "d"]);
    expect(moveInOrder(ids, "c", "first")).toEqual(["c", "a", "b", "d"]);
    expect(moveInOrder(ids, "b", "last")).toEqual(["a", "c", "d", "b"]);
  });
  it("leaves the order as it is at an end or for an id it does not hold", () => {
    expect(moveInOrder(ids, "a", "up")).toEqual(ids);
    expect(moveInOrder(ids, "d", "down")).toEqual(ids);
    expect(moveInOrder(ids, "z", "first")).toEqual(ids);
  });
});

describe("changedPositions", () => {
  it("names only the rows whose position changes, numbering from 0", () => {
    const current = [
      { id: "a", position: 0 },
      { id: "b", position: 1 },
      { id: "c", position: 2 },
    ];
    expect(changedPositions(current, ["a", "c", "b"])).toEqual([
      { id: "c", position: 1 },
      { id: "b", position: 2 },
    ]);
    // Gaps left by removals are closed on the next move.
    expect(
      changedPositions(
        [
          { id: "a", position: 3 },
          { id: "b", position: 7 },
        ],
        ["a", "b"],
      ),
    ).toEqual([
      { id: "a", position: 0 },
      { id: "b", position: 1 },
    ]);
  });
});

describe("isMove", () => {
  it("accepts the four moves and nothing else", () => {
    expect(["first", "up", "down", "last"].every(isMove)).toBe(true);
    expect(isMove("sideways")).toBe(false);
    expect(isMove(undefined)).toBe(false);
  });
});
