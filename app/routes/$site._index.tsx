import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { loader as siteLoader } from "./$site";

export const meta: MetaFunction = ({ matches }) => {
  const site = matches.find((m) => m.id === "routes/$site")?.data as { name?: string } | undefined;
  return site?.name ? [{ title: site.name }, { name: "description", content: `${site.name}, on Atrium` }] : [];
};

export default function SiteHome() {
  const site = useRouteLoaderData<typeof siteLoader>("routes/$site");
  if (!site) return null;
  return (
    <>
      <h1>{site.name}</h1>
      <p>Welcome to {site.name}.</p>
    </>
  );
}
