import { describe, expect, it } from "vitest";
import { purgePayloads, type PurgeMessage } from "./cache-bus";

describe("purge payloads", () => {
  it("fit in one NOTIFY when small", () => {
    const payloads = purgePayloads("node-1", ["ws:a", "ws:a:page:p"]);
    expect(payloads).toHaveLength(1);
    expect(JSON.parse(payloads[0]!)).toEqual({ origin: "node-1", tags: ["ws:a", "ws:a:page:p"] });
  });

  it("are split under Postgres's 8000-byte limit, every tag sent once", () => {
    const tags = Array.from({ length: 1_000 }, (_, i) => `ws:01HXWORKSPACEID0000000000:page:01HXPAGE${i}`);
    const payloads = purgePayloads("node-1", tags);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
    expect(payloads.flatMap((p) => (JSON.parse(p) as PurgeMessage).tags)).toEqual(tags);
  });
});
