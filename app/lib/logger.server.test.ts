import { describe, expect, it } from "vitest";
import { chooseLogFormat } from "./logger.server";

describe("the log format", () => {
  it("is readable lines only for a person: outside production, on a terminal", () => {
    expect(chooseLogFormat("auto", false, true)).toBe("pretty");
    expect(chooseLogFormat("auto", false, false)).toBe("json");
    expect(chooseLogFormat("auto", true, true)).toBe("json");
  });

  it("is what LOG_FORMAT says when it says one", () => {
    expect(chooseLogFormat("pretty", true, false)).toBe("pretty");
    expect(chooseLogFormat("json", false, true)).toBe("json");
  });
});
