import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument, routePath, type DeclaredRoute } from "./openapi.server";

describe("routePath", () => {
  it("reads a Remix flat-route file name as an OpenAPI path", () => {
    expect(routePath("api.sops.$sopId.runs.$runId.ts")).toEqual({
      path: "/api/sops/{sopId}/runs/{runId}",
      params: ["sopId", "runId"],
    });
    expect(routePath("./api.openapi[.]json.ts")).toEqual({ path: "/api/openapi.json", params: [] });
    expect(routePath("./api.v1.orders/route.ts")).toEqual({ path: "/api/v1/orders", params: [] });
    expect(routePath("[.]well-known.oauth-authorization-server.ts")?.path).toBe(
      "/.well-known/oauth-authorization-server",
    );
    expect(routePath("_console.settings_.sops._index.tsx")?.path).toBe("/settings/sops");
  });

  it("skips the splat route, which is no operation of its own", () => {
    expect(routePath("api.$.ts")).toBeUndefined();
  });
});

const Item = z.object({ id: z.string(), name: z.string() });

const FIXTURES: DeclaredRoute[] = [
  {
    file: "./api.v1.items.$itemId.ts",
    contract: {
      caller: "integrator",
      methods: {
        GET: { summary: "One item", output: Item, query: z.object({ expand: z.string().optional() }) },
        PUT: { summary: "Replace an item", input: Item.omit({ id: true }), output: Item, errors: [404, 409] },
      },
    },
  },
  {
    file: "./api.sops.$ref.trigger.ts",
    contract: {
      caller: "trigger",
      methods: {
        POST: { summary: "Trigger", input: z.object({ input: z.record(z.string(), z.unknown()) }), status: 202 },
      },
    },
  },
  { file: "./api.health.ts", contract: { caller: "public", methods: { GET: { summary: "Health" } } } },
  {
    file: "./api.editor.session.ts",
    contract: { caller: "operator", internal: true, methods: { GET: { summary: "x" } } },
  },
  { file: "./api.$.ts", contract: { caller: "public", methods: { GET: { summary: "Catch-all" } } } },
];

describe("openApiDocument", () => {
  // Read as the JSON it is served as (untyped, so the assertions can walk it freely).
  const doc = JSON.parse(
    JSON.stringify(openApiDocument(FIXTURES, { version: "1.2.3", origin: "https://atrium.example.com" })),
  );

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.2.3");
    expect(doc.servers).toEqual([{ url: "https://atrium.example.com" }]);
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it("lists declared routes by path, leaving out internal ones and the splat", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(["/api/health", "/api/sops/{ref}/trigger", "/api/v1/items/{itemId}"]);
    expect(Object.keys(doc.paths["/api/v1/items/{itemId}"])).toEqual(["get", "put"]);
  });

  it("declares path and query parameters", () => {
    const get = doc.paths["/api/v1/items/{itemId}"].get;
    expect(get.parameters).toEqual([
      { name: "itemId", in: "path", required: true, schema: { type: "string" } },
      { name: "expand", in: "query", required: false, schema: { type: "string" } },
    ]);
  });

  it("takes bodies from the zod schemas", () => {
    const put = doc.paths["/api/v1/items/{itemId}"].put;
    expect(put.requestBody).toEqual({
      required: true,
      content: {
        "application/json": {
          schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
    });
    expect(put.responses["200"].content["application/json"].schema).toEqual({
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" } },
      required: ["id", "name"],
    });
    expect(doc.paths["/api/sops/{ref}/trigger"].post.responses["202"].description).toBe("Accepted");
  });

  it("describes the error contract once and references it by caller type, body and declaration", () => {
    expect(doc.components.schemas.Error.required).toEqual(["error", "message", "statusCode"]);
    expect(Object.keys(doc.components.schemas.Error.properties)).toEqual([
      "error",
      "message",
      "statusCode",
      "issues",
      "retryAfter",
    ]);
    const codes = (op: { responses: object }) => Object.keys(op.responses);
    const items = doc.paths["/api/v1/items/{itemId}"];
    // integrator: 401/403/429; a body: 400/413/415; declared: 404/409.
    expect(codes(items.put)).toEqual(["200", "400", "401", "403", "404", "409", "413", "415", "429"]);
    expect(codes(items.get)).toEqual(["200", "400", "401", "403", "429"]);
    expect(items.put.responses["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
    expect(codes(doc.paths["/api/health"].get)).toEqual(["200"]);
    const responses = doc.components.responses;
    expect(responses.TooManyRequests.headers["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    expect(responses.Unauthorized.headers["WWW-Authenticate"]).toBeDefined();
    expect(responses.BadRequest.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
  });

  it("carries the rate-limit headers on the token API and each caller type's credentials", () => {
    const get = doc.paths["/api/v1/items/{itemId}"].get;
    expect(Object.keys(get.responses["200"].headers)).toEqual([
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
    ]);
    expect(get.security).toEqual([{ bearer: [] }]);
    expect(doc.paths["/api/sops/{ref}/trigger"].post.security).toEqual([{ sopTimestamp: [], sopSignature: [] }]);
    expect(doc.paths["/api/health"].get.security).toEqual([]);
    expect(doc.components.securitySchemes.sopSignature).toMatchObject({ in: "header", name: "X-SOP-Signature" });
  });
});
