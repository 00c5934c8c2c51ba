import { defineModule } from "~/lib/module";
import { createMailer, type Mailer } from "./mail.server";

declare module "~/lib/context" {
  interface AppServices {
    mailer: Mailer;
  }
}

export const mailModule = defineModule({
  name: "mail",
  services: ({ db, env, logger }) => ({ mailer: createMailer(db, env, logger) }),
});
