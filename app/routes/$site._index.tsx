import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { chromeMeta, chromeOf, SITE_LAYOUT_ID } from "~/site/chrome";
import { siteMeta } from "~/site/meta";
import type { loader as siteLoader } from "./$site";

// Placeholder until the pages module's home page (issue13-pages) replaces this file; it shows the pattern
// every public page's meta follows: siteMeta(...) plus chromeMeta(matches).
export const meta: MetaFunction = ({ matches, location }) => {
  const site = chromeOf(matches);
  if (!site) return [];
  return [
    ...siteMeta({
      siteName: site.name,
      origin: site.origin,
      path: location.pathname,
      title: site.name,
      description: site.profile.tagline || `${site.name}, on Atrium`,
      image: site.socialImage ? { url: site.socialImage.src, alt: site.socialImage.alt } : null,
    }),
    ...chromeMeta(matches),
  ];
};

export default function SiteHome() {
  const site = useRouteLoaderData<typeof siteLoader>(SITE_LAYOUT_ID);
  if (!site) return null;
  return (
    <section className="site-welcome">
      <div className="site-container site-welcome__inner">
        <div className="site-prose">
          <p className="site-welcome__kicker">Welcome</p>
          <h1>{site.name}</h1>
          <p className="site-lead">{site.profile.tagline || `Welcome to ${site.name}.`}</p>
        </div>
      </div>
    </section>
  );
}
