import { defineModule } from "~/lib/module";
import { createSecretBox, loadAppKey, type SecretBox } from "./secret-box.server";

declare module "~/lib/context" {
  interface AppServices {
    /** Seals secrets we must use again (AES-256-GCM under the app key). */
    secrets: SecretBox;
  }
}

export const secretsModule = defineModule({
  name: "secrets",
  services: ({ env, logger, dialect }) => {
    if (!env.APP_KEY && dialect === "postgres") {
      logger.warn(
        { path: env.APP_KEY_FILE },
        "no APP_KEY: using the key file, which other nodes do not share; set APP_KEY on every node",
      );
    }
    return { secrets: createSecretBox(loadAppKey(env, logger)) };
  },
});
