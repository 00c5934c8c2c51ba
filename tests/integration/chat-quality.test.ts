/**
 * The assistant's quality (issue 20, ADR 037): every question of the committed set (tests/fixtures/chat-questions.json)
 * goes through the real endpoint over the demo workspace, the way an integrator's AI SDK client asks it, and is
 * scored against what a correct answer must show — the facts it states, the pages it cites, the tools it runs, and
 * for a question it must refuse or cannot answer, that it says so and runs and cites nothing. The pass rate must stay
 * at or above THRESHOLD; the failures are printed as a table so a change that costs answers shows which.
 *
 * The demo's bookings are placed relative to when it is seeded, so the clock is pinned: seeded on a Monday, asked by
 * default on the Tuesday the demo's two consultations fall on (docs/chat-quality.md).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setTestClock } from "~/lib/clock.server";
import { ask, chatKey, userMessage, type Answer } from "../helpers/chat";
import { startServer, type TestServer } from "../helpers/server";

/** The share of the set that must be answered correctly (docs/chat-quality.md states the measured rate). */
const THRESHOLD = 0.9;

/** A fact the answer must show: a string, or alternatives of which one will do. */
const Expected = z.union([z.string().min(1), z.array(z.string().min(1)).min(2)]);

const Question = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    question: z.string().min(1),
    kind: z.enum(["answer", "refuse", "unknown"]),
    /** The tools that must run, and no others (in any order). Left out: not checked. */
    tools: z.array(z.string()).optional(),
    mustInclude: z.array(Expected).default([]),
    /** Site paths ("/" is the home page) the answer must cite as `source-url` parts. */
    mustCite: z.array(Expected).default([]),
    mustNotInclude: z.array(z.string().min(1)).default([]),
    /** When it is asked, if not at the set's `askedAt`. */
    at: z.string().datetime().optional(),
    /** Questions asked before it in the same conversation (a follow-up's subject). */
    before: z.array(z.string().min(1)).default([]),
    note: z.string().optional(),
  })
  .strict();
type Question = z.output<typeof Question>;

const QuestionSet = z
  .object({
    about: z.string(),
    seededAt: z.string().datetime(),
    askedAt: z.string().datetime(),
    questions: z.array(Question).min(45),
  })
  .strict();

const set = QuestionSet.parse(JSON.parse(readFileSync("tests/fixtures/chat-questions.json", "utf8")));

/** How the engine says it will not do something (ADR 037's refusals). */
const REFUSAL = /\bI (?:can['’]t|cannot|never|won['’]t|follow only)\b/;
/** How it says the workspace does not tell. */
const UNKNOWN = /\b(?:could not find|couldn['’]t find|do not know|don['’]t know|cannot answer)\b/i;

/** What is wrong with `answer` to `q`, in a few words each; empty when it is right. */
function faults(q: Question, answer: Answer, siteUrl: string): string[] {
  const found: string[] = [];
  const text = answer.text.replace(/\s+/g, " ");
  const has = (s: string) => text.includes(s.replace(/\s+/g, " "));
  const cited = new Set(answer.sources.map((s) => s.url));
  const url = (path: string) => (path === "/" ? siteUrl : `${siteUrl}${path}`);
  const ran = answer.tools.map((t) => t.name);

  if (q.tools && [...new Set(ran)].sort().join() !== [...q.tools].sort().join())
    found.push(`ran [${ran.join(", ")}], not [${q.tools.join(", ")}]`);
  const broken = answer.tools.filter((t) => t.state !== "output-available");
  if (broken.length) found.push(`tool ${broken.map((t) => t.name).join(", ")} did not finish`);
  for (const e of q.mustInclude) {
    const any = typeof e === "string" ? [e] : e;
    if (!any.some(has)) found.push(`missing “${any.join("” or “")}”`);
  }
  for (const s of q.mustNotInclude) if (has(s)) found.push(`says “${s}”`);
  for (const e of q.mustCite) {
    const any = typeof e === "string" ? [e] : e;
    if (!any.some((p) => cited.has(url(p)))) found.push(`does not cite ${any.join(" or ")}`);
  }
  if (q.kind === "refuse") {
    if (!REFUSAL.test(text)) found.push("does not refuse");
    if (ran.length) found.push("ran a tool though it refuses");
  } else if (q.kind === "unknown") {
    if (!UNKNOWN.test(text)) found.push("does not say it cannot answer");
  } else {
    if (UNKNOWN.test(text)) found.push("says it cannot answer");
    if (REFUSAL.test(text)) found.push("refuses");
  }
  if (q.kind !== "answer" && answer.sources.length) found.push("cites a source for what it does not answer");
  return found;
}

let server: TestServer;
let siteUrl: string;

/**
 * The clock stands still while the set is asked, so every request would fall in one minute of the token API's
 * per-key burst limit (Pro's is 100 a minute): a fresh key every few dozen requests keeps that limit out of what is
 * measured.
 */
const REQUESTS_PER_KEY = 50;
let requests = 0;
let key = "";
async function nextKey(): Promise<string> {
  if (requests++ % REQUESTS_PER_KEY === 0) key = await chatKey(server.db, "demo@atrium.test");
  return key;
}

beforeAll(async () => {
  // Seeded at a known moment: the demo books its consultations on the first free weekday slots after it.
  setTestClock(() => new Date(set.seededAt));
  server = await startServer({ SEED_DEMO: "true" });
  siteUrl = `${server.url}/harbor-bakery`;
});
afterAll(async () => {
  setTestClock(undefined);
  await server.close();
});

describe("the assistant's answers over the demo workspace", () => {
  it(`answers at least ${THRESHOLD * 100} % of the committed questions correctly`, async () => {
    const failures: { id: string; question: string; faults: string; answer: string }[] = [];
    for (const [i, q] of set.questions.entries()) {
      setTestClock(() => new Date(q.at ?? set.askedAt));
      const chatId = `quality-${process.pid}-${i}`;
      const history = [];
      for (const earlier of q.before) {
        const asked = userMessage(earlier);
        const answered = await ask(server.url, await nextKey(), earlier, {
          chatId,
          before: history,
          questionId: asked.id,
        });
        history.push(asked, answered.message);
      }
      const answer = await ask(server.url, await nextKey(), q.question, { chatId, before: history });
      const wrong = faults(q, answer, siteUrl);
      if (wrong.length)
        failures.push({
          id: q.id,
          question: q.question,
          faults: wrong.join("; "),
          answer: answer.text.replace(/\s+/g, " ").slice(0, 120),
        });
    }
    const passed = set.questions.length - failures.length;
    const rate = passed / set.questions.length;
    const byKind = (["answer", "refuse", "unknown"] as const).map((kind) => {
      const all = set.questions.filter((q) => q.kind === kind);
      const failed = all.filter((q) => failures.some((f) => f.id === q.id)).length;
      return `${kind} ${all.length - failed}/${all.length}`;
    });
    console.log(
      `chat quality: ${passed}/${set.questions.length} passed (${(rate * 100).toFixed(1)} %, threshold ${THRESHOLD * 100} %; ${byKind.join(", ")})`,
    );
    if (failures.length) console.table(failures);
    expect(rate).toBeGreaterThanOrEqual(THRESHOLD);
  }, 60_000);
});

describe("the question set", () => {
  it("has unique ids and every kind of question the issue names", () => {
    const ids = set.questions.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(set.questions.filter((q) => q.kind === "refuse").length).toBeGreaterThanOrEqual(5);
    expect(set.questions.filter((q) => q.kind === "unknown").length).toBeGreaterThanOrEqual(3);
    // Several asks in one question: more than one tool to run, or more than one page to cite.
    expect(set.questions.filter((q) => (q.tools?.length ?? 0) > 1 || q.mustCite.length > 1).length).toBeGreaterThan(3);
  });
});
