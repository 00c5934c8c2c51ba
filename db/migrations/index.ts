import type { Migration } from "kysely";
import * as m0001 from "./0001-foundation";

/**
 * The explicit, ordered list of migrations. No folder scanning: the server is bundled, so a new
 * migration must be imported here. Names are permanent once released.
 */
export const migrations: Record<string, Migration> = {
  "0001-foundation": m0001,
};
