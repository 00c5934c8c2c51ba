/**
 * The last thing `npm start` says: where to go, how to sign in, where the data lives. Plain text on a
 * developer's terminal, one JSON record (the same facts as fields) everywhere else.
 */
import { sqlitePath, type Dialect } from "~db/client";
import { DEMO_OPERATOR, type DemoState } from "./demo.server";

export interface BannerFacts {
  url: string;
  production: boolean;
  dev: boolean;
  dialect: Dialect;
  databaseUrl: string;
  /** APP_KEY when set, else the key file's path. */
  appKey: { source: "env" } | { source: "file"; path: string };
  demo: DemoState | undefined;
}

export interface Banner {
  /** The record's message; "listening on" stays its first words, which scripts and tests wait for. */
  message: string;
  fields: Record<string, unknown>;
  text: string;
}

/** Where the database is, without its credentials: a file path, or the Postgres host and database name. */
export function databaseLocation(dialect: Dialect, url: string): string {
  if (dialect === "sqlite") return sqlitePath(url);
  const parsed = new URL(url);
  return `postgres://${parsed.host}${parsed.pathname}`;
}

export function startBanner(facts: BannerFacts): Banner {
  const { url, demo } = facts;
  const location = databaseLocation(facts.dialect, facts.databaseUrl);
  // The demo password is published (README, source), so repeating it discloses nothing — but only while it
  // still opens the account, and never in production, where the demo account should not exist at all.
  const password = demo?.demoPassword && !facts.production ? DEMO_OPERATOR.password : undefined;
  const site = demo?.siteSlug ? `${url}/${demo.siteSlug}` : undefined;
  const appKey = facts.appKey.source === "env" ? "APP_KEY" : facts.appKey.path;

  let signIn: string;
  if (!demo) signIn = "with your account (`npm run admin -- users:create …` makes one)";
  else if (password) signIn = `${demo.email} / ${password}`;
  else if (demo.demoPassword) signIn = `${demo.email} still has the published demo password: delete it`;
  else signIn = `${demo.email} (its password was changed since the demo was seeded)`;

  const rows: [string, string][] = [
    ["Sign in", signIn],
    ...(site ? [["Demo site", site] as [string, string]] : []),
    ["Database", `${facts.dialect === "sqlite" ? "SQLite" : "PostgreSQL"}, ${location}`],
    ["App key", facts.appKey.source === "env" ? "from APP_KEY" : `${facts.appKey.path} (back it up with the database)`],
  ];
  const text = [
    "",
    `  Atrium is listening on ${url}${facts.dev ? " (Vite dev server)" : ""}`,
    "",
    ...rows.map(([label, value]) => `  ${label.padEnd(10)} ${value}`),
    "",
    "  Ctrl+C stops it. LOG_FORMAT=json prints the JSON log lines production writes.",
    "",
    "",
  ].join("\n");

  return {
    message: `Atrium is listening on ${url}`,
    fields: {
      url,
      dev: facts.dev,
      database: facts.dialect,
      databaseLocation: location,
      appKey,
      demo: demo && { email: demo.email, ...(password && { password }), ...(site && { site }) },
    },
    text,
  };
}
