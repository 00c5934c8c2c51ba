/** What the page's action answers, shared by the route and its panels. */
import type { FormResult } from "~/lib/forms.server";
import type { IssuedSecret } from "~/modules/sops/sop-triggers.server";
import type { StoredStep } from "~/modules/sops/steps/types";

export interface Draft {
  name: string;
  slug: string;
  description: string;
  callbackUrl: string;
  steps: StoredStep[];
}

export type SopResult = FormResult & { draft?: Draft; issued?: IssuedSecret };
