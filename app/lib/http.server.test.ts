import { describe, expect, it } from "vitest";
import { routePattern } from "./http.server";

describe("routePattern", () => {
  it("replaces parameter values with their names", () => {
    expect(routePattern("/api/sops/abc/trigger", { ref: "abc" })).toBe("/api/sops/:ref/trigger");
    expect(routePattern("/api/sops/s1/triggers/t1/rotate", { sopId: "s1", triggerId: "t1" })).toBe(
      "/api/sops/:sopId/triggers/:triggerId/rotate",
    );
  });

  it("turns the splat into *", () => {
    expect(routePattern("/api/nope/deeper", { "*": "nope/deeper" })).toBe("/api/*");
  });

  it("leaves a path without parameters alone", () => {
    expect(routePattern("/api/health", {})).toBe("/api/health");
  });
});
