/**
 * The access contract, enforced (ADR 005): every route file's loader and action declare the caller type the
 * contract's row for their path names, and the guards refuse to run for any other.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { consoleNotFoundRoutes } from "~/console/not-found-routes";
import { contractFor } from "./access-contract.server";
import { assertGuarded, defineGuard, runDeclared } from "./callers.server";
import type { CallerType } from "./context";
import type { DeclaredHandler } from "./route-contract";

const ROUTES = join(import.meta.dirname, "../routes");

/** Route files that take no declaration, and why. */
const UNDECLARED: Record<string, string> = {
  // The catch-all answers a JSON 404 for any /api/* path; whose path it is decides the caller it logs.
  "api.$.ts": "answers 404 for every path, for every caller",
};

/** Remix flat-route file name → a concrete path (parameters filled in), e.g. `api.sops.$sopId.trigger.ts`. */
export function samplePath(id: string): string {
  const segments: string[] = [];
  // `[.]` escapes a dot inside a segment: split on the other dots only.
  for (const raw of id.split(/(?<!\[)\.(?!\])/)) {
    const segment = raw.replace(/\[\.\]/g, ".");
    if (segment === "_index" || (segment.startsWith("_") && segment.length > 1)) continue; // index, pathless layout
    const name = segment.replace(/_$/, ""); // `settings_.sops` is not nested in `settings`
    if (name === "$") segments.push("any/thing");
    else if (name.startsWith("$")) segments.push(`sample-${name.slice(1).toLowerCase()}`);
    else segments.push(name);
  }
  return `/${segments.join("/")}`;
}

function routeFiles(): Array<{ id: string; file: string }> {
  return readdirSync(ROUTES).flatMap((entry) => {
    const path = join(ROUTES, entry);
    if (statSync(path).isDirectory()) {
      const inner = readdirSync(path).find((f) => /^route\.tsx?$/.test(f));
      return inner ? [{ id: entry, file: join(path, inner) }] : [];
    }
    return /\.tsx?$/.test(entry) && !entry.endsWith(".test.ts")
      ? [{ id: entry.replace(/\.tsx?$/, ""), file: path }]
      : [];
  });
}

describe("every route declares the caller its path's row names", () => {
  it("maps file names to paths the way Remix does", () => {
    expect(samplePath("_console.settings_.sops.$sopId")).toBe("/settings/sops/sample-sopid");
    expect(samplePath("[.]well-known.oauth-authorization-server")).toBe("/.well-known/oauth-authorization-server");
    expect(samplePath("api.openapi[.]json")).toBe("/api/openapi.json");
    expect(samplePath("$site._index")).toBe("/sample-site");
    expect(samplePath("_console._index")).toBe("/");
  });

  const files = routeFiles();
  it("finds the route files", () => expect(files.length).toBeGreaterThan(20));

  for (const { id, file } of files) {
    it(`${id}`, async () => {
      const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
      const handlers = (["loader", "action"] as const).filter((name) => typeof module[name] === "function");
      if (UNDECLARED[`${id}.ts`] ?? UNDECLARED[`${id}.tsx`]) return;
      const expected = contractFor(samplePath(id)).caller;
      for (const name of handlers) {
        const declared = (module[name] as Partial<DeclaredHandler>).declaredCaller;
        expect(declared, `${id}: its ${name} is not wrapped in apiRoute or page`).toBeDefined();
        expect(declared, `${id}: its ${name} declares ${declared}; the contract says ${expected}`).toBe(expected);
      }
    });
  }
});

describe("the console's 404, registered outside app/routes (ADR 015)", () => {
  it("declares the operator, whom the contract gives every console segment's paths", async () => {
    const module = (await import("~/console/not-found-route")) as { loader: Partial<DeclaredHandler> };
    expect(module.loader.declaredCaller).toBe("operator");
    for (const route of Object.values(consoleNotFoundRoutes())) {
      expect(contractFor(`/${route.path.replace("*", "any/thing")}`).caller, route.path).toBe("operator");
    }
  });
});

function fakeArgs(path: string): LoaderFunctionArgs {
  const context = {
    services: {},
    request: { log: {}, logger: { error() {} } },
  } as unknown as AppLoadContext;
  return { request: new Request(`http://localhost${path}`), params: {}, context };
}

describe("guards and declarations at run time", () => {
  const integratorGuard = defineGuard("integrator", async () => ({ user: "u" }));
  const operatorGuard = defineGuard("operator", async () => ({ session: "s" }));

  it("refuses to read input before the guard ran, and allows it after", async () => {
    const read = ({ context }: LoaderFunctionArgs) => assertGuarded(context);
    await expect(runDeclared({ caller: "operator" }, fakeArgs("/settings"), read)).rejects.toThrow(
      /read its input before running a operator guard/,
    );
    await expect(
      runDeclared({ caller: "operator" }, fakeArgs("/settings"), async (args) => {
        await operatorGuard(args.request, args.context);
        read(args);
        return "read";
      }),
    ).resolves.toBe("read");
    await expect(runDeclared({ caller: "operator", unguarded: "sign-in" }, fakeArgs("/login"), read)).resolves.toBe(
      undefined,
    );
  });

  it("runs a handler whose guard matches its declaration", async () => {
    const result = await runDeclared({ caller: "integrator" }, fakeArgs("/api/auth/me"), ({ request, context }) =>
      integratorGuard(request, context),
    );
    expect(result).toEqual({ user: "u" });
  });

  it("refuses a guard of another caller type", async () => {
    await expect(
      runDeclared({ caller: "integrator" }, fakeArgs("/api/auth/me"), ({ request, context }) =>
        operatorGuard(request, context),
      ),
    ).rejects.toThrow(/declared for integrator callers ran the operator guard/);
  });

  it("fails closed when a guarded caller's handler runs no guard, unless it says why", async () => {
    await expect(runDeclared({ caller: "operator" }, fakeArgs("/settings"), () => "leaked")).rejects.toThrow(
      /without running a operator guard/,
    );
    await expect(
      runDeclared({ caller: "operator", unguarded: "sign-in page" }, fakeArgs("/login"), () => "page"),
    ).resolves.toBe("page");
    await expect(runDeclared({ caller: "public" }, fakeArgs("/sample-site"), () => "site")).resolves.toBe("site");
  });

  it("refuses a guard outside any declared route", async () => {
    const { request, context } = fakeArgs("/api/auth/me");
    await expect(integratorGuard(request, context)).rejects.toThrow(/outside a declared route/);
  });

  it("has a row for every caller type the spec names", () => {
    const callers = new Set<CallerType>(
      [
        "/api/auth/me",
        "/api/sops/x/trigger",
        "/api/editor/x",
        "/api/internal/x",
        "/api/cron/x",
        "/api/webhooks/x",
        "/api/v1/x",
        "/oauth/token",
        "/api/health",
        "/settings",
        "/sample-site",
      ].map((p) => contractFor(p).caller),
    );
    expect([...callers].sort()).toEqual(
      ["customer", "integrator", "internal", "operator", "provider", "public", "scheduler", "trigger"].sort(),
    );
  });
});
