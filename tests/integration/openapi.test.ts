/**
 * GET /api/openapi.json: a valid OpenAPI 3.1 document, served by the real server, that lists every method of
 * every API route declared for integrators. The routes are found here by walking app/routes on disk, not
 * through the route's own glob, so a route the document misses fails this test.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeclaredHandler, Method } from "~/lib/route-contract";
import { startServer, type TestServer } from "../helpers/server";

const ROUTES = join(import.meta.dirname, "../../app/routes");

/** Every API route module on disk: `api.x.ts`, or a route folder `api.x/route.ts`. */
function apiRouteFiles(): Array<{ id: string; file: string }> {
  return readdirSync(ROUTES).flatMap((entry) => {
    if (!entry.startsWith("api.")) return [];
    const path = join(ROUTES, entry);
    if (statSync(path).isDirectory()) {
      const inner = readdirSync(path).find((f) => /^route\.tsx?$/.test(f));
      return inner ? [{ id: entry, file: join(path, inner) }] : [];
    }
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)
      ? [{ id: entry.replace(/\.tsx?$/, ""), file: path }]
      : [];
  });
}

/** The URL template of a flat-route id, for the API routes we have: dots split, `[.]` is a dot, `$x` is `{x}`. */
function templateOf(id: string): string {
  return (
    "/" +
    id
      .split(/(?<!\[)\.(?!\])/)
      .map((segment) => segment.replace(/\[\.\]/g, ".").replace(/^\$(.+)$/, "{$1}"))
      .join("/")
  );
}

interface Declared {
  path: string;
  method: Method;
  status: number;
}

async function declaredOperations(): Promise<Declared[]> {
  const declared: Declared[] = [];
  for (const { id, file } of apiRouteFiles()) {
    const module = (await import(/* @vite-ignore */ file)) as { loader?: Partial<DeclaredHandler> };
    const contract = module.loader?.contract;
    if (!contract || contract.internal) continue;
    for (const [method, entry] of Object.entries(contract.methods)) {
      declared.push({ path: templateOf(id), method: method as Method, status: entry?.status ?? 200 });
    }
  }
  return declared;
}

type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters?: { name: string }[] }>>;
  components: { schemas: { Error: { properties: Record<string, unknown>; required: string[] } } };
};

describe("GET /api/openapi.json", () => {
  let server: TestServer;
  let response: Response;
  let doc: Doc;
  beforeAll(async () => {
    server = await startServer();
    response = await fetch(`${server.url}/api/openapi.json`);
    doc = (await response.json()) as Doc;
  });
  afterAll(() => server.close());

  it("serves a valid OpenAPI 3.1 document naming this server and its version", async () => {
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    // Without PUBLIC_URL its server is the request's own origin: no cache may keep it (tests/integration/hosts.test.ts
    // checks that the document is cacheable under a configured origin).
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(doc.openapi).toBe("3.1.0");
    const { version } = (await import("../../package.json")).default;
    expect(doc.info.version).toBe(version);
    expect(doc.servers).toEqual([{ url: new URL(server.url).origin }]);
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("lists every method of every API route declared for integrators, at its path", async () => {
    const declared = await declaredOperations();
    // The walk found the routes we know are declared (so an empty walk cannot pass).
    expect(declared.map((d) => `${d.method} ${d.path}`)).toEqual(
      expect.arrayContaining([
        "GET /api/auth/me",
        "GET /api/health",
        "POST /api/sops/{ref}/trigger",
        "GET /api/sops/{sopId}/runs/{runId}",
        "POST /api/sops/{sopId}/triggers/{triggerId}/rotate",
      ]),
    );
    const missing = declared.filter(({ path, method }) => !doc.paths[path]?.[method.toLowerCase()]);
    expect(missing, "declared routes missing from /api/openapi.json").toEqual([]);
    for (const { path, method, status } of declared) {
      const operation = doc.paths[path]![method.toLowerCase()]!;
      expect(Object.keys(operation.responses), `${method} ${path}`).toContain(String(status));
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        (operation.parameters ?? []).map((p) => p.name),
        `${method} ${path}`,
      ).toEqual(expect.arrayContaining(params));
    }
  });

  it("leaves out internal routes and the catch-all", () => {
    expect(Object.keys(doc.paths).filter((p) => /editor|routing-test|openapi|\{\*?\}$/.test(p))).toEqual([]);
  });

  it("describes the error bodies the server really answers with", async () => {
    const res = await fetch(`${server.url}/api/auth/me`);
    expect(res.status).toBe(401);
    const body = (await res.json()) as Record<string, unknown>;
    const schema = doc.components.schemas.Error;
    for (const key of schema.required) expect(body).toHaveProperty(key);
    for (const key of Object.keys(body)) expect(Object.keys(schema.properties)).toContain(key);
    expect(doc.paths["/api/auth/me"]!.get!.responses["401"]).toEqual({ $ref: "#/components/responses/Unauthorized" });
  });
});
