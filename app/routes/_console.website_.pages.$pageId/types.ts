import type { FormResult } from "~/lib/forms.server";
import type { DraftForm } from "~/modules/sites/page-form";

/** What the editor's action answers: which form, and for the draft form the draft as typed. */
export type EditorResult = FormResult & { draft?: DraftForm };
