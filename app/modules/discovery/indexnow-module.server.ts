import { defineModule } from "~/lib/module";
import { INDEXNOW_JOB, indexNowHandler } from "./indexnow.server";

/** IndexNow's submissions (ADR 022): the job that sends what publishing queued. */
export const indexNowModule = defineModule({
  name: "indexnow",
  contributes: (services) => ({ jobs: { [INDEXNOW_JOB]: indexNowHandler(services) } }),
});
