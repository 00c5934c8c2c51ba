/**
 * What a route declares about itself (issue "The house for forty modules", ADR 005): the caller type it
 * serves — checked against the access contract's row for its path by a test that walks every route file,
 * and by the guards at run time — and, for API routes, each method's input and output as zod schemas, from
 * which `/api/openapi.json` is generated. Types only, so the OpenAPI generator and tests can read them.
 */
import type { z } from "zod";
import type { CallerType } from "~/lib/context";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface MethodContract {
  /** One line for the API reference. */
  summary: string;
  description?: string;
  /** The JSON request body. */
  input?: z.ZodType;
  /** Query parameters. */
  query?: z.ZodObject;
  /** The JSON body of a success. */
  output?: z.ZodType;
  /** The success status (200 unless given). */
  status?: number;
  /** Statuses this method answers beyond those its caller type implies (e.g. 404, 409). */
  errors?: number[];
  /**
   * Takes an `Idempotency-Key` header (ADR 030): the reference documents the header and its 409 and 422. The
   * handler wraps its work in `idempotent` (app/modules/customers/idempotency.server.ts).
   */
  idempotent?: boolean;
}

export interface RouteContract {
  caller: CallerType;
  /**
   * Left out of the integrators' API reference: the console's own endpoints, diagnostics, and routes that
   * other systems call by their own protocols.
   */
  internal?: boolean;
  methods: Partial<Record<Method, MethodContract>>;
}

/** A loader or action that carries its declaration (what `apiRoute` and `page` return). */
export interface DeclaredHandler {
  /** (Not `caller`: strict-mode functions may not carry a property of that name.) */
  readonly declaredCaller: CallerType;
  readonly contract?: RouteContract;
}
