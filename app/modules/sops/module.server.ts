import { now } from "~/lib/clock.server";
import { defineModule } from "~/lib/module";
import { COMPLETION_JOB, RUN_JOB, completionHandler, runHandler } from "./runs.server";

const DAY = 86_400_000;

export const sopsModule = defineModule({
  name: "sops",
  contributes: ({ db, mailer, outbound, logger, secrets, env }) => {
    // The e-mails a step causes (a booking confirmed) link to the deployment's public address.
    const origin = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    const deps = { db, mailer, outbound, logger, box: secrets, origin };
    return {
      jobs: { [RUN_JOB]: runHandler(deps), [COMPLETION_JOB]: completionHandler(deps) },
      maintenance: [
        async () => {
          const at = now().getTime();
          // A replayed signature is refused by its timestamp once its row expires.
          await db.deleteFrom("sop_signature_replays").where("expires_at", "<", new Date(at).toISOString()).execute();
          const before = new Date(at - 90 * DAY).toISOString();
          await db.deleteFrom("sop_verification_failures").where("created_at", "<", before).execute();
        },
      ],
    };
  },
});
