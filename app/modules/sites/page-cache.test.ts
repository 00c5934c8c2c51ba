import { describe, expect, it } from "vitest";
import { PUBLIC_CACHE_CONTROL, publicCacheHeaders } from "~/modules/cache/headers";
import { mergeCacheHeaders, nextLocalMidnight } from "./page-cache";

describe("nextLocalMidnight", () => {
  it("is the next midnight of the zone, not of UTC", () => {
    expect(nextLocalMidnight("UTC", new Date("2026-03-10T15:20:00Z")).toISOString()).toBe("2026-03-11T00:00:00.000Z");
    expect(nextLocalMidnight("Europe/Lisbon", new Date("2026-07-10T22:30:00Z")).toISOString()).toBe(
      "2026-07-10T23:00:00.000Z",
    );
    expect(nextLocalMidnight("America/New_York", new Date("2026-01-10T03:00:00Z")).toISOString()).toBe(
      "2026-01-10T05:00:00.000Z",
    );
  });

  it("finds the day's end across a clock change (a 23-hour day) and in a half-hour zone", () => {
    // Europe/Berlin springs forward on 29 March 2026: midnight of the 30th is 22:00 UTC on the 29th.
    expect(nextLocalMidnight("Europe/Berlin", new Date("2026-03-29T00:30:00Z")).toISOString()).toBe(
      "2026-03-29T22:00:00.000Z",
    );
    expect(nextLocalMidnight("Asia/Kolkata", new Date("2026-05-01T12:00:00Z")).toISOString()).toBe(
      "2026-05-01T18:30:00.000Z",
    );
  });
});

describe("mergeCacheHeaders", () => {
  const h = (record: Record<string, string>) => new Headers(record);

  it("joins a layout's and a page's tags, the earliest limit and the query parameters", () => {
    const merged = mergeCacheHeaders(
      h(publicCacheHeaders({ tags: ["ws:a", "ws:a:branding"], until: new Date("2026-01-02T00:00:00Z") })),
      h(publicCacheHeaders({ tags: ["ws:a:page:1"], until: new Date("2026-01-01T12:00:00Z"), varyQuery: ["sent"] })),
    );
    expect(merged).toEqual({
      "Cache-Control": PUBLIC_CACHE_CONTROL,
      "Cache-Tag": "ws:a,ws:a:branding,ws:a:page:1",
      "Atrium-Cache-Until": "2026-01-01T12:00:00.000Z",
      "Atrium-Cache-Vary-Query": "sent",
    });
  });

  it("is not cacheable when any part says so, nor when none says anything", () => {
    expect(mergeCacheHeaders(h(publicCacheHeaders({ tags: ["ws:a"] })), h({ "Cache-Control": "no-store" }))).toEqual({
      "Cache-Control": "no-store",
    });
    expect(mergeCacheHeaders(h({}), undefined)).toEqual({ "Cache-Control": "no-store" });
    // A page that declares nothing keeps its layout's tags.
    expect(mergeCacheHeaders(h(publicCacheHeaders({ tags: ["ws:a"] })), h({}))["Cache-Tag"]).toBe("ws:a");
  });
});
