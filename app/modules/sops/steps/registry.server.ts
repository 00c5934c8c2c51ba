/**
 * The typed registry of SOP steps. Each step type describes its fields (for the console), validates its
 * configuration at save time (templates and expressions are parsed then, so a bad one is a field error, not
 * a failed run), and runs. Later issues add types here (create ticket, update booking, …) and nothing else
 * changes.
 *
 * Every step gets an idempotency key derived from run and step (`<runId>.<index>`): runs are delivered at
 * least once, so each effect is keyed: outbound requests send it as `Idempotency-Key`, mail and contact
 * events store it under a unique constraint.
 */
import type { Logger } from "pino";
import { z } from "zod";
import type { Db } from "~db/client";
import { isDomainError } from "~/lib/errors";
import { contactEventsOf } from "~/modules/contacts/contact-events.server";
import { BOOKING_STEP_ACTIONS, applyBookingAction, bookingStatusOf } from "~/modules/scheduling/operator.server";
import type { Mailer } from "~/modules/mail/mail.server";
import { OutboundError, outboundRequest, type OutboundPolicy } from "~/modules/outbound/outbound-http.server";
import {
  ExpressionError,
  checkTemplate,
  evaluate,
  isTruthy,
  parseExpression,
  renderTemplate,
  type JsonValue,
  type Scope,
} from "../expressions";
import type { FieldSpec, StepDescription } from "./types";

export interface StepServices {
  db: Db;
  mailer: Mailer;
  outbound: OutboundPolicy;
  logger: Logger;
  /** The deployment's public address, for links in the e-mails a step causes. */
  origin: string;
}

export interface StepContext {
  workspaceId: string;
  runId: string;
  index: number;
  idempotencyKey: string;
  scope: Scope;
  services: StepServices;
}

export interface StepOutcome {
  output: JsonValue;
  /** A condition that did not hold: the run ends here, successfully. */
  stop?: boolean;
  /** Values for `vars.*` in later steps. */
  vars?: Record<string, JsonValue>;
}

/** A failure of the step itself; `retryable` failures are attempted again (network, timeouts, 5xx, 429). */
export class StepError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

interface StepDefinition<T> extends StepDescription {
  schema: z.ZodType<T>;
  run(config: T, context: StepContext): Promise<StepOutcome>;
}

const STORED_TEXT_LIMIT = 65_536;

const template = (label: string, required = true) => {
  let text = z.string().trim().max(4000, `${label}: use at most 4000 characters`);
  if (required) text = text.min(1, `${label} is required`);
  return text.superRefine((value, ctx) => {
    try {
      checkTemplate(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
    }
  });
};

const expression = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .superRefine((value, ctx) => {
      try {
        parseExpression(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    });

/** Names of steps and values: JSON-safe identifiers, never a name that reaches an object's prototype. */
const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
const RESERVED_NAMES = new Set(["__proto__", "constructor", "prototype"]);
const IDENTIFIER = { test: (name: string) => IDENTIFIER_PATTERN.test(name) && !RESERVED_NAMES.has(name) };

/** `name = expression` per line, for `set`. */
function parseAssignments(text: string): { name: string; expression: string }[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf("=");
      const name = at > 0 ? line.slice(0, at).trim() : "";
      const source = at > 0 ? line.slice(at + 1).trim() : "";
      if (!IDENTIFIER.test(name) || !source || source.startsWith("=")) {
        throw new ExpressionError(`Write each line as name = expression (got "${line.slice(0, 60)}")`);
      }
      return { name, expression: source };
    });
}

/** `Name: value` per line, for request headers. */
function parseHeaderLines(text: string): [string, string][] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(":");
      const name = at > 0 ? line.slice(0, at).trim() : "";
      if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) {
        throw new ExpressionError(`Write each header as Name: value (got "${line.slice(0, 60)}")`);
      }
      return [name, line.slice(at + 1).trim()];
    });
}

const render = (text: string | undefined, scope: Scope) => (text ? renderTemplate(text, scope) : "");
const cap = (text: string) => (text.length > STORED_TEXT_LIMIT ? `${text.slice(0, STORED_TEXT_LIMIT)}…` : text);
const EMAIL = z.email();

function requireEmail(value: string, field: string): string {
  if (!EMAIL.safeParse(value).success)
    throw new StepError(`${field} is not an e-mail address: "${value.slice(0, 80)}"`);
  return value;
}

const HttpRequest = z.object({
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"], { message: "Choose a method" }),
  url: template("URL").superRefine((value, ctx) => {
    if (value.startsWith("{{")) return; // The whole URL comes from the input; checked when the step runs.
    if (!/^https?:\/\//i.test(value)) ctx.addIssue({ code: "custom", message: "The URL must start with https://" });
  }),
  headers: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        for (const [, v] of parseHeaderLines(value)) checkTemplate(v);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    }),
  body: template("Body", false).default(""),
});

const httpRequest: StepDefinition<z.output<typeof HttpRequest>> = {
  type: "http_request",
  label: "HTTP request",
  description:
    "Call a URL (https only in production; private addresses refused). Retried on network errors, timeouts, 5xx and 429.",
  fields: [
    {
      name: "method",
      label: "Method",
      kind: "select",
      options: ["GET", "POST", "PUT", "PATCH", "DELETE"],
      required: true,
    },
    { name: "url", label: "URL", kind: "text", required: true, placeholder: "https://example.com/hooks/{{input.id}}" },
    { name: "headers", label: "Headers", kind: "textarea", hint: "One per line, Name: value. Templates allowed." },
    { name: "body", label: "Body", kind: "textarea", hint: "Sent as is; templates allowed, e.g. {{input}} for JSON." },
  ],
  schema: HttpRequest,
  async run(config, { scope, idempotencyKey, services }) {
    const url = render(config.url, scope);
    const headers: Record<string, string> = { "Idempotency-Key": idempotencyKey };
    for (const [name, value] of parseHeaderLines(config.headers)) headers[name] = renderTemplate(value, scope);
    const body = config.method === "GET" || config.method === "DELETE" ? undefined : render(config.body, scope);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
      headers["Content-Type"] = "application/json";
    }
    try {
      const response = await outboundRequest({ url, method: config.method, headers, body }, services.outbound);
      let parsed: JsonValue = cap(response.body);
      if (/json/i.test(response.headers["content-type"] ?? "")) {
        try {
          parsed = JSON.parse(response.body) as JsonValue;
        } catch {
          // Not JSON after all: keep the text.
        }
      }
      return { output: { status: response.status, body: parsed } };
    } catch (error) {
      if (error instanceof OutboundError) {
        const status = error.status ? ` (HTTP ${error.status})` : "";
        throw new StepError(`${error.message}${status}`, error.retryable);
      }
      throw error;
    }
  },
};

const SendEmail = z.object({
  to: template("To"),
  subject: template("Subject"),
  body: template("Message"),
});

const sendEmail: StepDefinition<z.output<typeof SendEmail>> = {
  type: "send_email",
  label: "Send e-mail",
  description: "Send a plain-text e-mail (SMTP when configured, otherwise the development outbox).",
  fields: [
    { name: "to", label: "To", kind: "text", required: true, placeholder: "{{input.email}}" },
    { name: "subject", label: "Subject", kind: "text", required: true },
    { name: "body", label: "Message", kind: "textarea", required: true },
  ],
  schema: SendEmail,
  async run(config, { scope, idempotencyKey, workspaceId, services }) {
    const to = requireEmail(render(config.to, scope).trim(), "To");
    const sent = await services.mailer
      .send({
        workspaceId,
        to,
        subject: render(config.subject, scope).slice(0, 300),
        text: render(config.body, scope),
        idempotencyKey,
      })
      .catch((error: unknown) => {
        // The mail server's final refusal (5xx) is the step's failure; temporary ones are retried by the job.
        if ((error as { permanent?: unknown }).permanent) throw new StepError((error as Error).message);
        throw error;
      });
    return { output: { messageId: sent.id, transport: sent.transport, to } };
  },
};

const Condition = z.object({ expression: expression("Condition") });

const condition: StepDefinition<z.output<typeof Condition>> = {
  type: "condition",
  label: "Condition",
  description: "Stop the run here (successfully) unless the expression holds.",
  fields: [
    {
      name: "expression",
      label: "Continue only if",
      kind: "expression",
      required: true,
      placeholder: 'input.total > 100 && input.country == "NL"',
    },
  ],
  schema: Condition,
  async run(config, { scope }) {
    const value = evaluate(config.expression, scope);
    const passed = isTruthy(value);
    return { output: { passed }, stop: !passed };
  },
};

const SetValues = z.object({
  assignments: z
    .string()
    .trim()
    .min(1, "Write at least one line: name = expression")
    .superRefine((value, ctx) => {
      try {
        for (const a of parseAssignments(value)) parseExpression(a.expression);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    }),
});

const setValues: StepDefinition<z.output<typeof SetValues>> = {
  type: "set",
  label: "Set values",
  description: "Compute values for later steps, as vars.<name>.",
  fields: [
    {
      name: "assignments",
      label: "Values",
      kind: "assignments",
      required: true,
      hint: "One per line: name = expression",
      placeholder: 'fullName = input.first + " " + input.last',
    },
  ],
  schema: SetValues,
  async run(config, { scope }) {
    const vars: Record<string, JsonValue> = {};
    for (const { name, expression: source } of parseAssignments(config.assignments)) {
      vars[name] = evaluate(source, { ...scope, vars: { ...(scope.vars as object), ...vars } });
    }
    return { output: vars, vars };
  },
};

const ContactEvent = z.object({
  email: template("E-mail"),
  event: template("Event"),
  note: template("Note", false).default(""),
});

const createContactEvent: StepDefinition<z.output<typeof ContactEvent>> = {
  type: "create_contact_event",
  label: "Record a contact event",
  description: "Add an event to a customer's history, by e-mail address.",
  fields: [
    { name: "email", label: "E-mail", kind: "text", required: true, placeholder: "{{input.email}}" },
    { name: "event", label: "Event", kind: "text", required: true, placeholder: "order.created" },
    { name: "note", label: "Note", kind: "textarea" },
  ],
  schema: ContactEvent,
  async run(config, { scope, idempotencyKey, workspaceId, services }) {
    const email = requireEmail(render(config.email, scope).trim(), "E-mail");
    const event = render(config.event, scope).trim().slice(0, 100);
    if (!event) throw new StepError("The event name came out empty");
    const recorded = await contactEventsOf(services.db, workspaceId).record({
      email,
      type: event,
      note: render(config.note, scope).slice(0, 2000),
      source: "sop",
      idempotencyKey,
    });
    return { output: { eventId: recorded.id, email, event } };
  },
};

const UpdateBooking = z.object({
  booking: template("Booking"),
  action: z.enum(BOOKING_STEP_ACTIONS, { message: `Action: one of ${BOOKING_STEP_ACTIONS.join(", ")}` }),
  reason: template("Reason", false).default(""),
});

/** What each action leaves the booking as: a retried run finding it so has nothing left to do. */
const BOOKING_STEP_RESULT: Record<(typeof BOOKING_STEP_ACTIONS)[number], string> = {
  confirm: "confirmed",
  decline: "cancelled",
  cancel: "cancelled",
  complete: "completed",
  no_show: "no_show",
};

const updateBooking: StepDefinition<z.output<typeof UpdateBooking>> = {
  type: "update_booking",
  label: "Update a booking",
  description:
    "Confirm or decline a booking waiting for approval, cancel one, or mark it completed or a no-show, by its id. " +
    "The booker gets the same e-mail as when a member does it in the console.",
  fields: [
    { name: "booking", label: "Booking id", kind: "text", required: true, placeholder: "{{input.bookingId}}" },
    { name: "action", label: "Action", kind: "select", required: true, options: BOOKING_STEP_ACTIONS },
    { name: "reason", label: "Reason (decline, cancel)", kind: "text", placeholder: "{{input.reason}}" },
  ],
  schema: UpdateBooking,
  async run(config, { scope, workspaceId, services }) {
    const id = render(config.booking, scope).trim();
    if (!/^[0-9A-Za-z]{1,64}$/.test(id)) throw new StepError("The booking id came out empty or malformed");
    const reason = render(config.reason, scope).trim().slice(0, 1000);
    try {
      const booking = await applyBookingAction(services.db, workspaceId, id, config.action, reason, services.origin);
      return { output: { bookingId: id, action: config.action, status: booking.status } };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      // Delivered again after it applied (runs are at least once): the booking is already as asked.
      const now = await bookingStatusOf(services.db, workspaceId, id);
      if (error.kind === "conflict" && now === BOOKING_STEP_RESULT[config.action]) {
        return { output: { bookingId: id, action: config.action, status: now } };
      }
      throw new StepError(error.kind === "not-found" ? `No booking ${id} in this workspace` : error.message);
    }
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry is typed by its own schema
const STEPS: readonly StepDefinition<any>[] = [
  httpRequest,
  sendEmail,
  condition,
  setValues,
  createContactEvent,
  updateBooking,
];
const BY_TYPE = new Map(STEPS.map((s) => [s.type, s]));

export const STEP_TYPES: readonly StepDescription[] = STEPS.map(({ type, label, description, fields }) => ({
  type,
  label,
  description,
  fields: fields as readonly FieldSpec[],
}));

export function stepDefinition(type: string) {
  return BY_TYPE.get(type);
}

export async function runStep(step: { type: string; [field: string]: unknown }, context: StepContext) {
  const definition = BY_TYPE.get(step.type);
  if (!definition) throw new StepError(`Unknown step type "${step.type}"`);
  const config = definition.schema.safeParse(step);
  if (!config.success) throw new StepError(`The step is misconfigured: ${config.error.issues[0]?.message ?? ""}`);
  try {
    return await definition.run(config.data, context);
  } catch (error) {
    if (error instanceof ExpressionError) throw new StepError(error.message);
    throw error;
  }
}

export { IDENTIFIER };
