import { defineModule } from "~/lib/module";
import { registerFileUsage } from "~/modules/files/usage.server";
import { brandingFileUsage } from "./branding.server";
import { BRAND_IMPORT_JOB, brandImportHandler } from "./brand-import.server";

// The media library asks the branding whether a file is its logo, favicon or social image.
registerFileUsage("branding", brandingFileUsage);

/** Branding, business profile and the brand import: the import's job handler. */
export const siteBrandingModule = defineModule({
  name: "site-branding",
  contributes: (services) => ({ jobs: { [BRAND_IMPORT_JOB]: brandImportHandler(services) } }),
});
