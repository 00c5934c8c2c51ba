// GET /{site}/llms.txt — the site for AI crawlers, in the llmstxt.org format (ADR 021), once the operator turned
// it on in /discovery/llms; a 404 otherwise, and while the site is protected by a password.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { page } from "~/lib/routes.server";
import { llmsTxt } from "~/modules/discovery/public.server";
import { notFoundText, technicalSite } from "~/modules/discovery/technical.server";
import { TECHNICAL_FILE_KINDS } from "~/modules/sites/page-cache";

export const loader = page("public", async ({ request, params, context }: LoaderFunctionArgs) => {
  const site = await technicalSite(request, context, params.site);
  if (!site.settings.llms.enabled || site.visibility === "protected")
    return notFoundText("This site publishes no llms.txt", context);
  const body = await llmsTxt(context.services.db, site.workspace, site.address, site.settings.llms.summary);
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      // The site's summary (`settings`) and its list of pages.
      ...site.cacheHeaders(TECHNICAL_FILE_KINDS.llms),
      // Served to AI crawlers on request, but not a page for a search engine's index of a hidden site.
      ...(site.settings.noindex ? { "X-Robots-Tag": "noindex" } : {}),
    },
  });
});
