import { defineModule } from "~/lib/module";
import { registerSearchSources } from "./index.server";

/** The content index's sources, gathered from every module at start (ADR 037). */
export const searchModule = defineModule({
  name: "search",
  start: (_services, contributions) => registerSearchSources(contributions.flatMap((c) => c.searchSources ?? [])),
});
