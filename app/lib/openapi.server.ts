/**
 * The integrators' API reference (OpenAPI 3.1), generated from what the routes declare (`apiRoute`'s contract,
 * app/lib/route-contract.ts) so it cannot drift from the code: a route's path comes from its file name, its
 * bodies from its zod schemas (zod 4's own JSON Schema output, draft 2020-12, the dialect of OpenAPI 3.1), the
 * errors from its caller type. The error contract, the rate-limit headers and the credentials are described
 * once, in `components`, and referenced from each operation. Pure: served by app/routes/api.openapi[.]json.ts.
 */
import { z } from "zod";
import type { CallerType } from "~/lib/context";
import type { Method, MethodContract, RouteContract } from "~/lib/route-contract";

export interface DeclaredRoute {
  /** The Remix route file, e.g. `api.sops.$sopId.runs.$runId.ts` or `api.orders/route.ts`. */
  file: string;
  contract: RouteContract;
}

/** An event family of /api/webhooks/* (app/modules/events), described for its senders (ADR 027). */
export interface DescribedEventFamily {
  family: string;
  summary: string;
  description: string;
  /** The body's schema (the family's zod schema). */
  schema: z.ZodType;
  example: unknown;
  /** The cache tag kinds its events purge. */
  tags: readonly string[];
  /** Signed with the provider connection's secret rather than one created in the console. */
  provider: boolean;
}

export interface OpenApiOptions {
  /** The API's version (package.json's). */
  version: string;
  /** The event receivers' families: the splat route `/api/webhooks/*` is one operation per family. */
  eventFamilies?: readonly DescribedEventFamily[];
  /** Where the API is served, e.g. `https://atrium.example.com` (the route sets it per request otherwise). */
  origin?: string;
}

type Json = Record<string, unknown>;

/**
 * The URL path of a Remix flat-route file as an OpenAPI path template, or undefined for a splat route (which
 * matches anything, so it is no operation of its own). `.` separates segments, `[…]` escapes (so `[.]` is a
 * literal dot), `$name` is a parameter, a leading `_` is a pathless layout and a trailing `_` only stops
 * nesting; a route folder (`api.orders/route.ts`) is named by its folder.
 */
export function routePath(file: string): { path: string; params: string[] } | undefined {
  const id = file
    .replace(/^\.\//, "")
    .replace(/\/route\.tsx?$/, "")
    .replace(/\.tsx?$/, "");
  const segments: { text: string; dynamic: boolean }[] = [{ text: "", dynamic: false }];
  let escaped = false;
  for (const char of id) {
    const segment = segments.at(-1)!;
    if (escaped) {
      if (char === "]") escaped = false;
      else segment.text += char;
    } else if (char === "[") {
      escaped = true;
    } else if (char === ".") {
      segments.push({ text: "", dynamic: false });
    } else if (char === "$" && segment.text === "") {
      segment.dynamic = true;
    } else {
      segment.text += char;
    }
  }
  const parts: string[] = [];
  const params: string[] = [];
  for (const { text, dynamic } of segments) {
    if (dynamic && text === "") return undefined;
    if (dynamic) {
      params.push(text);
      parts.push(`{${text}}`);
    } else if (text !== "_index" && !text.startsWith("_")) {
      parts.push(text.replace(/_$/, ""));
    }
  }
  return { path: `/${parts.join("/")}`, params };
}

/** The error contract's body (app/lib/http.server.ts, `errorResponse`), described once. */
const ErrorBody = z
  .object({
    error: z.string().describe("The status's name, e.g. `Not Found`"),
    message: z.string().describe("What went wrong, in a sentence meant for a person"),
    statusCode: z.number().int(),
    issues: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe("400 only: each invalid field (a dotted path into the body) and why"),
    retryAfter: z.number().int().optional().describe("429 only: seconds to wait, as in Retry-After"),
  })
  .describe("Every error of the API, whatever its status");

const header = (description: string, type: "integer" | "string" = "integer") => ({ description, schema: { type } });

const HEADERS: Record<string, Json> = {
  "X-RateLimit-Limit": header("Requests allowed per hour for this key, app or SOP trigger (the plan's limit)"),
  "X-RateLimit-Remaining": header("Requests left in the current hour"),
  "X-RateLimit-Reset": header("When the hourly window resets, in Unix seconds"),
  "Retry-After": header("Seconds to wait before the next request is admitted"),
  "WWW-Authenticate": header("The credential the route expects (`Bearer`, or the SOP trigger's HMAC)", "string"),
};
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const ref = (kind: "headers" | "responses" | "schemas", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const headerRefs = (names: string[]) => Object.fromEntries(names.map((name) => [name, ref("headers", name)]));

const errorContent = { "application/json": { schema: ref("schemas", "Error") } };
const RESPONSES: Record<number, { name: string; description: string; headers?: string[] }> = {
  400: { name: "BadRequest", description: "The input is invalid: `issues` names each field" },
  401: { name: "Unauthorized", description: "No valid credential", headers: ["WWW-Authenticate"] },
  403: { name: "Forbidden", description: "The credential may not do this (role, scope or account status)" },
  404: { name: "NotFound", description: "No such record, or none the caller may see" },
  409: {
    name: "Conflict",
    description:
      "The request conflicts with the record's state, or a request with the same Idempotency-Key is still running",
  },
  413: { name: "PayloadTooLarge", description: "The body exceeds the server's limit" },
  415: { name: "UnsupportedMediaType", description: "The body is not sent as application/json" },
  422: {
    name: "UnprocessableContent",
    description: "The request cannot be applied as sent: an Idempotency-Key reused for a different request",
  },
  429: {
    name: "TooManyRequests",
    description: "Rate limited: `retryAfter` (and Retry-After) say when to try again",
    headers: ["Retry-After", ...RATE_LIMIT_HEADERS],
  },
};

const SECURITY_SCHEMES: Record<string, Json> = {
  bearer: {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`atr_live_…` or `atr_test_…`, from the console's API Keys) or an OAuth access token " +
      "(see /.well-known/oauth-authorization-server)",
  },
  sopTimestamp: {
    type: "apiKey",
    in: "header",
    name: "X-SOP-Timestamp",
    description: "The Unix time in seconds; requests outside the server's window are refused",
  },
  sopSignature: {
    type: "apiKey",
    in: "header",
    name: "X-SOP-Signature",
    description: "`sha256=` and the lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` under the trigger's secret",
  },
  standardWebhooks: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of " +
      "`<webhook-id>.<webhook-timestamp>.<raw body>` under the base64-decoded part of the family's secret after " +
      "`whsec_` (created in the console's Settings → Event receivers). Space-separated signatures are accepted.",
  },
  consoleSession: {
    type: "apiKey",
    in: "cookie",
    name: "atrium_session",
    description: "The console's session (`__Host-atrium_session` over HTTPS), for the console's own calls",
  },
  customerSession: {
    type: "apiKey",
    in: "cookie",
    name: "atrium_customer_{site}",
    description:
      "A customer's session on one site (ADR 029): `atrium_customer_{site slug}` on the deployment's host, " +
      "`atrium_customer` on the site's own domain (`__Host-` prefixed over HTTPS). Unsafe requests it " +
      "authenticates must come from the site's own origin.",
  },
  customerBearer: {
    type: "http",
    scheme: "bearer",
    description:
      "A customer access token from `POST /api/v1/auth/token` (the same e-mailed code as the site's sign-in), " +
      "for a site's own app. Valid on its site only.",
  },
};

/**
 * What each caller type implies: how it authenticates and what its guard can answer. Caller types whose
 * guard does not exist yet (provider, scheduler, internal) imply nothing until it does.
 */
const CALLERS: Partial<Record<CallerType, { security: Json[]; errors: number[]; rateLimited?: boolean }>> = {
  public: { security: [], errors: [] },
  integrator: { security: [{ bearer: [] }], errors: [401, 403, 429], rateLimited: true },
  // Both headers together: one requirement object.
  // Rate-limited per trigger when the owner's plan limits triggers (ADR 010, "Limits").
  trigger: { security: [{ sopTimestamp: [], sopSignature: [] }], errors: [401, 404, 429], rateLimited: true },
  operator: { security: [{ bearer: [] }, { consoleSession: [] }], errors: [401, 403, 429] },
  // The site by host, header or query: unknown site 404, suspended owner 403; counted per client address and
  // customer (429). Private routes add 401 and need one of the customer credentials; public ones take none.
  customer: {
    security: [{}, { customerSession: [] }, { customerBearer: [] }],
    errors: [403, 404, 429],
    rateLimited: true,
  },
};

const STATUS_TEXT: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" };

/** zod's JSON Schema, as a schema object inside the document (which states the dialect once, for all). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    // zod closes every object it outputs (it strips unknown keys), but a response may gain fields without a
    // new version: only objects declared strict are closed in the reference.
    override: ({ zodSchema, jsonSchema: json }) => {
      const def = zodSchema._zod.def;
      if (io === "output" && def.type === "object" && !("catchall" in def && def.catchall)) {
        delete json.additionalProperties;
      }
    },
  }) as Json;
  return rest;
}

function queryParameters(query: NonNullable<MethodContract["query"]>): Json[] {
  const schema = jsonSchema(query, "input") as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function operationId(method: Method, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** Stripe's semantics (ADR 030), kept per workspace and caller. */
const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 visible ASCII characters, unique per request you mean once (a UUID). Sent again with the same " +
    "method, path and body within 24 hours, the first answer is replayed with `Idempotent-Replayed: true` and " +
    "nothing runs twice; with anything else, 422; while the first is still running, 409. Keys are yours alone: " +
    "another customer's identical key never replays your answer.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

function operation(method: Method, path: string, params: string[], caller: CallerType, contract: MethodContract) {
  const implied = CALLERS[caller] ?? { security: [], errors: [] };
  const status = contract.status ?? 200;
  const errors = new Set([
    ...implied.errors,
    ...(contract.input ? [400, 413, 415] : []),
    ...(contract.query ? [400] : []),
    ...(contract.errors ?? []),
    ...(contract.idempotent ? [409, 422] : []),
  ]);
  const responses: Record<string, Json> = {
    [status]: {
      description: STATUS_TEXT[status] ?? "Success",
      ...(implied.rateLimited ? { headers: headerRefs(RATE_LIMIT_HEADERS) } : {}),
      ...(contract.output
        ? { content: { "application/json": { schema: jsonSchema(contract.output, "output") } } }
        : {}),
    },
  };
  for (const code of [...errors].sort((a, b) => a - b)) {
    const known = RESPONSES[code];
    responses[code] = known ? ref("responses", known.name) : { description: `Error ${code}`, content: errorContent };
  }
  const parameters = [
    ...params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...(contract.query ? queryParameters(contract.query) : []),
    ...(contract.idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  return {
    operationId: operationId(method, path),
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    tags: [path.split("/")[2] ?? "api"],
    security: implied.security,
    ...(parameters.length ? { parameters } : {}),
    ...(contract.input
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchema(contract.input, "input") } },
          },
        }
      : {}),
    responses,
  };
}

/** What a sender of the event receivers is answered (ADR 027), beyond the error contract's bodies. */
const EventReceipt = z.object({
  eventId: z.string().describe("The `webhook-id` received"),
  status: z.enum(["applied", "duplicate"]),
  duplicate: z.boolean().describe("True when this id was already applied: nothing changed"),
});

const EVENT_ERRORS: Record<number, string> = {
  400: "No workspace named, a body that is not JSON, or not the family's event (`issues` names the fields)",
  401:
    "Missing or invalid signature (`Invalid signature`: also for an unknown workspace, answered as one with no " +
    "matching secret), or a timestamp outside the replay window",
  403: "The body's `workspace` is not the workspace named, or the workspace's owner is suspended",
  404: "No such family, or the record the event names does not exist",
  409: "The same event id is being applied by another delivery right now: retry after Retry-After",
  413: "The body exceeds 256 KB",
  429: "Too many events this minute from this address, or for this workspace and family: retry after Retry-After",
  500: "The event could not be applied; it is recorded, and a retry with the same id applies it",
};

function eventOperation(family: DescribedEventFamily): Json {
  const header = (name: string, description: string, required = true) => ({
    name,
    in: "header",
    required,
    description,
    schema: { type: "string" },
  });
  return {
    operationId: operationId("POST", `/api/webhooks/${family.family}`),
    summary: family.summary,
    description:
      `${family.description}\n\nChecked in this order: the workspace (header or query), the rate limit and ` +
      "the 256 KB cap, the signature over the raw body, the timestamp (5 minutes by default), the event id (a " +
      "duplicate answers 200 with `duplicate: true` and changes nothing), then the body's schema and its " +
      "`workspace`. Every event is recorded and shown in the console, with a replay action." +
      (family.tags.length
        ? ` Purges the cached public pages tagged ${family.tags.map((t) => `\`${t}\``).join(", ")}.`
        : ""),
    tags: ["webhooks"],
    security: family.provider ? [] : [{ standardWebhooks: [] }],
    parameters: [
      header("Atrium-Workspace", "The workspace's id (or give it as `?workspace=`)", false),
      {
        name: "workspace",
        in: "query",
        required: false,
        description: "The workspace's id, for senders that cannot set a header",
        schema: { type: "string" },
      },
      header("webhook-id", "The event's unique id: a retry sends the same one"),
      header("webhook-timestamp", "Unix time in seconds when it was signed"),
      header("webhook-signature", "`v1,<base64 HMAC-SHA256>` (see the security scheme)"),
    ],
    requestBody: {
      required: true,
      content: { "application/json": { schema: jsonSchema(family.schema, "input"), example: family.example } },
    },
    responses: {
      200: {
        description: "Applied, or a duplicate",
        content: { "application/json": { schema: jsonSchema(EventReceipt, "output") } },
      },
      ...Object.fromEntries(
        Object.entries(EVENT_ERRORS).map(([code, description]) => [code, { description, content: errorContent }]),
      ),
    },
  };
}

const METHOD_ORDER: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** The OpenAPI 3.1 document of the routes not marked `internal`. */
export function openApiDocument(routes: readonly DeclaredRoute[], options: OpenApiOptions): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const { file, contract } of routes) {
    if (contract.internal) continue;
    const route = routePath(file);
    if (!route) continue;
    for (const method of METHOD_ORDER) {
      const declared = contract.methods[method];
      if (!declared) continue;
      (paths[route.path] ??= {})[method.toLowerCase()] = operation(
        method,
        route.path,
        route.params,
        contract.caller,
        declared,
      );
    }
  }
  for (const family of options.eventFamilies ?? []) {
    paths[`/api/webhooks/${family.family}`] = { post: eventOperation(family) };
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const tags = [...new Set(Object.values(sorted).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags)))];
  return {
    openapi: "3.1.0",
    info: {
      title: "Atrium API",
      version: options.version,
      description:
        "The token API, the SOP routes, the customer API and the event receivers of an Atrium server. Errors answer " +
        "`{ error, message, statusCode }` (+ `issues` on 400, + `retryAfter` on 429).",
    },
    ...(options.origin ? { servers: [{ url: options.origin }] } : {}),
    tags: (tags as string[]).sort().map((name) => ({ name })),
    paths: sorted,
    components: {
      schemas: { Error: jsonSchema(ErrorBody, "output") },
      responses: Object.fromEntries(
        Object.values(RESPONSES).map(({ name, description, headers }) => [
          name,
          { description, ...(headers ? { headers: headerRefs(headers) } : {}), content: errorContent },
        ]),
      ),
      headers: HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
