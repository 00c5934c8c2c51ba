import type { RollupLog } from "rollup";
import { describe, expect, it } from "vitest";
import config from "../vite.config";

describe("the production build's warnings", () => {
  it("drop Rollup's empty-chunk warning (one per resource route) and keep every other", () => {
    // Remix's plugin hands each warning to this handler (the user's onwarn) after its own filter.
    const onwarn = config.build?.rollupOptions?.onwarn;
    const shown: string[] = [];
    const warn = (log: RollupLog | string) => shown.push(typeof log === "string" ? log : (log.code ?? ""));
    onwarn?.({ code: "EMPTY_BUNDLE", message: 'Generated an empty chunk: "api.health".' }, warn);
    onwarn?.({ code: "CIRCULAR_DEPENDENCY", message: "Circular dependency" }, warn);
    expect(onwarn).toBeTypeOf("function");
    expect(shown).toEqual(["CIRCULAR_DEPENDENCY"]);
  });
});
