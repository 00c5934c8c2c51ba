import { describe, expect, it } from "vitest";
import { isStorageFull } from "~db/client";
import { rateLimited } from "./errors";
import { errorResponse, routePattern } from "./http.server";

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

describe("a write refused for want of space", () => {
  // As the drivers throw them: better-sqlite3's SqliteError and pg's DatabaseError carry the code.
  const sqliteFull = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  const postgresFull = Object.assign(new Error("could not extend file: No space left on device"), { code: "53100" });

  it("is recognised on both dialects, and nothing else is", () => {
    expect(isStorageFull(sqliteFull)).toBe(true);
    expect(isStorageFull(postgresFull)).toBe(true);
    for (const other of [{ code: "SQLITE_BUSY" }, { code: "53200" }, { code: "23505" }, new Error("x"), null]) {
      expect(isStorageFull(other)).toBe(false);
    }
  });

  it.each([
    ["SQLite", sqliteFull],
    ["Postgres", postgresFull],
  ])("answers 503 with the error contract and Retry-After, never the driver's message (%s)", async (_name, error) => {
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("120");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // The spec gives `retryAfter` in the body of a 429 only.
    expect(await response.json()).toEqual({
      error: "Service Unavailable",
      message: "The server cannot save changes right now: its storage is full. Try again later.",
      statusCode: 503,
    });
  });

  it.each([
    ["SQLite", Object.assign(new Error("attempt to write a readonly database"), { code: "SQLITE_READONLY" })],
    ["Postgres", Object.assign(new Error("cannot execute INSERT in a read-only transaction"), { code: "25006" })],
  ])("answers a write refused by a read-only database with 503 too (%s)", async (_name, error) => {
    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("120");
    expect(((await response.json()) as { message: string }).message).toMatch(/database is read-only/);
  });

  it("leaves the 429's retryAfter in its body", async () => {
    const response = errorResponse(rateLimited(30));
    expect(await response.json()).toMatchObject({ statusCode: 429, retryAfter: 30 });
    expect(response.headers.get("retry-after")).toBe("30");
  });
});
