import { describe, expect, it } from "vitest";
import { memoized } from "./memo";

describe("memoized", () => {
  it("computes each argument once, including answers that are falsy", () => {
    const calls: string[] = [];
    const f = memoized((key: string) => {
      calls.push(key);
      return key === "none" ? null : key.length;
    });
    expect([f("abc"), f("abc"), f("none"), f("none")]).toEqual([3, 3, null, null]);
    expect(calls).toEqual(["abc", "none"]);
  });

  it("holds at most `max` answers, then starts again, still answering right", () => {
    const calls: string[] = [];
    const f = memoized((key: string) => {
      calls.push(key);
      return key.toUpperCase();
    }, 2);
    expect([f("a"), f("b"), f("c"), f("a")]).toEqual(["A", "B", "C", "A"]);
    // "c" emptied the memory of a and b: "a" is computed again.
    expect(calls).toEqual(["a", "b", "c", "a"]);
  });
});
