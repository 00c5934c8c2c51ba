import { defineModule } from "~/lib/module";
import { registerFileUsage } from "~/modules/files/usage.server";
import { brandingFileUsage } from "./branding.server";
import { BRAND_IMPORT_JOB, brandImportHandler } from "./brand-import.server";
import { brandingEvents, pagesEvents, settingsEvents } from "./events.server";
import { pagesUsingFile } from "./pages.server";
import { siteSearchSource } from "./search.server";
import { sitesChatTools } from "./chat-tools.server";

// The media library's "where used": a file may be the logo, favicon or social image, or shown by pages' blocks.
registerFileUsage("branding", brandingFileUsage);
registerFileUsage("pages", pagesUsingFile);

/** The website: pages, branding, business profile, policies; the brand import's job handler. */
export const sitesModule = defineModule({
  name: "sites",
  contributes: (services) => ({
    jobs: { [BRAND_IMPORT_JOB]: brandImportHandler(services) },
    eventFamilies: [brandingEvents, settingsEvents, pagesEvents],
    searchSources: [siteSearchSource],
    chatTools: sitesChatTools,
  }),
});
