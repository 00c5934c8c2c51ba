/**
 * The expression language of stored operating procedures (SOPs), and the `{{ expr }}` templates built on
 * it. Operators type expressions into console forms; the server evaluates them against JSON that third
 * parties send to a SOP's trigger. Both the expression and the data are untrusted.
 *
 * Nothing here turns text into code: no `eval`, `Function`, `vm` or code generation. The language is a
 * tokenizer, a Pratt parser that builds a frozen AST, and a tree-walking evaluator over JSON values. It is
 * written by hand because the alternatives fit worse: JSON Logic is safe, but its JSON syntax is awkward
 * to type into a console form, and the popular JavaScript expression libraries either compile with
 * `Function` or have had prototype-pollution advisories. A grammar this small is cheaper to audit.
 *
 * The sandbox rests on a few rules, each kept in one place:
 * - Values are only ever JSON. Every value read from the scope goes through `readJson`, which refuses
 *   anything else (functions, class instances, NaN).
 * - Reads see own data only (`Object.hasOwn`). `__proto__`, `constructor` and `prototype` never resolve,
 *   so no path reaches a prototype or a function.
 * - The only callable things are the built-in functions in `FUNCTIONS` (a `Map`), and calls are checked
 *   against it at parse time.
 * - Nothing is ever written. The language has no assignment, and this module never sets a property on
 *   data it was given.
 * - Work is bounded: source length, nesting depth, a step budget per evaluation (charged for every node,
 *   every element a built-in or comparison walks, and long native scans), and a length cap on every
 *   produced string, checked before the string is built. Walks over data (equality, JSON rendering) use
 *   explicit stacks, so even 100,000-deep input cannot overflow the call stack.
 * - Anything else that goes wrong surfaces as an ExpressionError (see `guarded`), never a raw TypeError
 *   or RangeError.
 *
 * Grammar, loosest binding first (all binary operators are left-associative except `?:`):
 *
 *   expression  := ternary
 *   ternary     := or ( "?" expression ":" expression )?
 *   or          := and ( "||" and )*
 *   and         := equality ( "&&" equality )*
 *   equality    := relation ( ( "==" | "!=" ) relation )*
 *   relation    := additive ( ( "<" | "<=" | ">" | ">=" | "in" ) additive )*
 *   additive    := product ( ( "+" | "-" ) product )*
 *   product     := unary ( ( "*" | "/" | "%" ) unary )*
 *   unary       := ( "!" | "-" ) unary | postfix
 *   postfix     := primary ( "." NAME | "[" expression "]" )*
 *   primary     := NUMBER | STRING | "true" | "false" | "null" | NAME | NAME "(" arguments? ")"
 *                | "[" arguments? "]" | "(" expression ")"
 *   arguments   := expression ( "," expression )*
 */

/** A parse or evaluation failure. The message is meant for the operator who wrote the expression. */
export class ExpressionError extends Error {
  /** 1-based character position in the expression (or template) for parse errors; undefined otherwise. */
  readonly position: number | undefined;

  constructor(message: string, position?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = "ExpressionError";
    this.position = position;
  }
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The names an expression can start from, e.g. `{ input, vars, steps }`. */
export interface Scope {
  [name: string]: JsonValue;
}

export const LIMITS = Object.freeze({
  /** Characters in one expression (and in one `{{ }}` placeholder). */
  maxSourceLength: 2000,
  /** Nesting levels in the parser: parentheses, unary operators, arrays, calls, operands. */
  maxDepth: 32,
  /**
   * Work per evaluation (per whole template in renderTemplate): one step per AST node, one per element a
   * built-in or a comparison walks, and one per 10,000 characters or keys of native scanning.
   */
  maxSteps: 10_000,
  /** Characters in any string the language produces, including a rendered template. */
  maxStringLength: 100_000,
  /** Elements in an array literal. */
  maxArrayLength: 1000,
  /** `{{ }}` placeholders in one template. */
  maxPlaceholders: 100,
});

export type UnaryOperator = "!" | "-";
export type LogicalOperator = "&&" | "||";
export type BinaryOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "+" | "-" | "*" | "/" | "%";

/**
 * The parsed form of an expression. Nodes are frozen, so a tree validated at save time cannot be changed
 * before it runs. `pos` is the node's 1-based position in the source.
 */
export type Expression =
  | Readonly<{ type: "literal"; value: null | boolean | number | string; pos: number }>
  | Readonly<{ type: "array"; items: readonly Expression[]; pos: number }>
  | Readonly<{ type: "name"; name: string; pos: number }>
  | Readonly<{ type: "member"; object: Expression; property: Expression; pos: number }>
  | Readonly<{ type: "unary"; operator: UnaryOperator; operand: Expression; pos: number }>
  | Readonly<{ type: "binary"; operator: BinaryOperator; left: Expression; right: Expression; pos: number }>
  | Readonly<{ type: "logical"; operator: LogicalOperator; left: Expression; right: Expression; pos: number }>
  | Readonly<{ type: "conditional"; test: Expression; consequent: Expression; alternate: Expression; pos: number }>
  | Readonly<{ type: "call"; name: string; args: readonly Expression[]; pos: number }>;

// Names that lead to prototypes in JavaScript. They never resolve, even when the data has them as own keys
// (JSON.parse makes `__proto__` an own property), so a path can never be mistaken for a way out.
const FORBIDDEN_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

// ---------------------------------------------------------------------------------------------------------
// Tokenizer

type TokenKind = "number" | "string" | "name" | "punct" | "end";

interface Token {
  kind: TokenKind;
  /** The number's value, the string's decoded text, the name, or the punctuation itself. */
  value: string | number;
  /** 1-based position in the expression or template. */
  pos: number;
  /** The source text, for error messages. */
  text: string;
}

// Longest first, so `<=` is never read as `<` then `=`.
const PUNCTUATION = "|| && == != <= >= < > ! + - * / % ? : ( ) [ ] , .".split(" ").sort((a, b) => b.length - a.length);

// Sticky patterns read at one index; without nested quantifiers they run in linear time.
const NUMBER_PATTERN = /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NAME_PATTERN = /[A-Za-z_$][A-Za-z0-9_$]*/y;
const NAME_CHAR = /[A-Za-z0-9_$]/;

const ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["'", "'"],
  ["\\", "\\"],
  ["/", "/"],
  ["n", "\n"],
  ["t", "\t"],
  ["r", "\r"],
]);

/** `base` is the source's offset in an enclosing template, so positions point into what the operator typed. */
function tokenize(source: string, base: number): Token[] {
  const tokens: Token[] = [];
  const fail = (message: string, index: number): never => {
    throw new ExpressionError(`${message} at position ${base + index + 1}`, base + index + 1);
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      i += 1;
      continue;
    }
    const start = i;
    const pos = base + start + 1;
    if (ch >= "0" && ch <= "9") {
      NUMBER_PATTERN.lastIndex = i;
      const text = NUMBER_PATTERN.exec(source)![0];
      i += text.length;
      if (i < source.length && NAME_CHAR.test(source[i]!)) {
        fail(`Invalid number '${source.slice(start, i + 1)}'`, start);
      }
      const value = Number(text);
      if (!Number.isFinite(value)) fail("Number is too large", start);
      tokens.push({ kind: "number", value, pos, text });
      continue;
    }
    if (ch === '"' || ch === "'") {
      let value = "";
      i += 1;
      for (;;) {
        if (i >= source.length) fail("Unterminated string", start);
        const c = source[i]!;
        if (c === ch) break;
        if (c !== "\\") {
          value += c;
          i += 1;
          continue;
        }
        const escape = source[i + 1];
        if (escape === undefined) fail("Unterminated string", start);
        if (escape === "u") {
          const hex = source.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Expected four hex digits after '\\u'", i);
          value += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        const decoded = ESCAPES.get(escape!);
        if (decoded === undefined) fail(`Unknown escape '\\${escape}'`, i);
        value += decoded;
        i += 2;
      }
      i += 1;
      tokens.push({ kind: "string", value, pos, text: source.slice(start, i) });
      continue;
    }
    NAME_PATTERN.lastIndex = i;
    const name = NAME_PATTERN.exec(source);
    if (name) {
      i += name[0].length;
      tokens.push({ kind: "name", value: name[0], pos, text: name[0] });
      continue;
    }
    // JavaScript habits get a hint rather than a bare "unexpected".
    if (source.startsWith("===", i) || source.startsWith("!==", i)) {
      fail(`Use '${ch}=' instead of '${source.slice(i, i + 3)}' (comparisons are always strict)`, i);
    }
    const punct = PUNCTUATION.find((p) => source.startsWith(p, i));
    if (punct === undefined) {
      const hint = ch === "=" ? " (use '==' to compare)" : ch === "&" ? " (use '&&')" : ch === "|" ? " (use '||')" : "";
      fail(`Unexpected character '${ch}'${hint}`, i);
    }
    i += punct!.length;
    tokens.push({ kind: "punct", value: punct!, pos, text: punct! });
  }
  tokens.push({ kind: "end", value: "", pos: base + source.length + 1, text: "" });
  return tokens;
}

// ---------------------------------------------------------------------------------------------------------
// Parser (Pratt: each operator has a binding power; higher binds tighter)

const BINDING_POWER: ReadonlyMap<string, number> = new Map([
  ["?", 1],
  ["||", 2],
  ["&&", 3],
  ["==", 4],
  ["!=", 4],
  ["<", 5],
  ["<=", 5],
  [">", 5],
  [">=", 5],
  ["in", 5],
  ["+", 6],
  ["-", 6],
  ["*", 7],
  ["/", 7],
  ["%", 7],
  // Postfix: member access, and `(` only so that calling a non-function gets its own message.
  [".", 9],
  ["[", 9],
  ["(", 9],
]);
const PREFIX_POWER = 8;

function node<T extends Expression>(value: T): T {
  return Object.freeze(value);
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Expression {
    if (this.peek().kind === "end") this.fail("Empty expression", this.peek());
    const expression = this.expression(0, 0);
    const rest = this.peek();
    if (rest.kind !== "end") this.fail(`Unexpected ${describe(rest)}`, rest);
    return expression;
  }

  private peek(): Token {
    return this.tokens[this.index]!;
  }

  private next(): Token {
    const token = this.tokens[this.index]!;
    if (token.kind !== "end") this.index += 1;
    return token;
  }

  private isPunct(token: Token, punct: string): boolean {
    return token.kind === "punct" && token.value === punct;
  }

  private expect(punct: string, context: string): void {
    const token = this.next();
    if (!this.isPunct(token, punct)) this.fail(`Expected '${punct}' ${context} but found ${describe(token)}`, token);
  }

  private fail(message: string, token: Token): never {
    throw new ExpressionError(`${message} at position ${token.pos}`, token.pos);
  }

  /** Parses operators binding tighter than `minPower`; `depth` counts nesting to refuse hostile towers. */
  private expression(minPower: number, depth: number): Expression {
    if (depth > LIMITS.maxDepth) {
      this.fail(`Expression is nested too deeply (more than ${LIMITS.maxDepth} levels)`, this.peek());
    }
    let left = this.prefix(depth);
    for (;;) {
      const token = this.peek();
      const key = token.kind === "punct" || (token.kind === "name" && token.value === "in") ? String(token.value) : "";
      const power = BINDING_POWER.get(key) ?? 0;
      if (power <= minPower) return left;
      this.next();
      left = this.infix(left, token, key, power, depth + 1);
    }
  }

  private prefix(depth: number): Expression {
    const token = this.next();
    const pos = token.pos;
    switch (token.kind) {
      case "number":
      case "string":
        return node({ type: "literal", value: token.value, pos });
      case "name": {
        const name = String(token.value);
        if (name === "true" || name === "false") return node({ type: "literal", value: name === "true", pos });
        if (name === "null") return node({ type: "literal", value: null, pos });
        if (name === "in") this.fail("Unexpected 'in'", token);
        if (this.isPunct(this.peek(), "(")) return this.call(token, depth);
        return node({ type: "name", name, pos });
      }
      case "punct":
        if (token.value === "(") {
          const inner = this.expression(0, depth + 1);
          this.expect(")", "to close the '(' at position " + pos);
          return inner;
        }
        if (token.value === "[") {
          return node({ type: "array", items: this.list("]", depth), pos });
        }
        if (token.value === "!" || token.value === "-") {
          const operand = this.expression(PREFIX_POWER, depth + 1);
          return node({ type: "unary", operator: token.value, operand, pos });
        }
        break;
      case "end":
        this.fail("Unexpected end of expression", token);
    }
    return this.fail(`Unexpected ${describe(token)}`, token);
  }

  private infix(left: Expression, token: Token, operator: string, power: number, depth: number): Expression {
    const pos = token.pos;
    switch (operator) {
      case ".": {
        const name = this.next();
        // Any word is a property name after a dot, keywords included (`input.in`, `input.null`).
        if (name.kind === "number") this.fail(`Use [${name.text}] for an index instead of .${name.text}`, name);
        if (name.kind !== "name") this.fail(`Expected a property name after '.' but found ${describe(name)}`, name);
        const property = node({ type: "literal", value: String(name.value), pos: name.pos });
        return node({ type: "member", object: left, property, pos });
      }
      case "[": {
        const property = this.expression(0, depth);
        this.expect("]", "to close the '[' at position " + pos);
        return node({ type: "member", object: left, property, pos });
      }
      case "(":
        return this.fail("Only built-in functions can be called, like lower(x); '(' is not allowed here", token);
      case "?": {
        const consequent = this.expression(0, depth);
        this.expect(":", "for the '?' at position " + pos);
        // Minimum power 0 makes `a ? b : c ? d : e` group to the right, as in JavaScript.
        const alternate = this.expression(0, depth);
        return node({ type: "conditional", test: left, consequent, alternate, pos });
      }
      case "&&":
      case "||":
        return node({ type: "logical", operator, left, right: this.expression(power, depth), pos });
      default:
        return node({
          type: "binary",
          operator: operator as BinaryOperator,
          left,
          right: this.expression(power, depth),
          pos,
        });
    }
  }

  private call(nameToken: Token, depth: number): Expression {
    const name = String(nameToken.value);
    const spec = FUNCTIONS.get(name);
    if (!spec) this.fail(`Unknown function '${name}'`, nameToken);
    this.next(); // "("
    const args = this.list(")", depth);
    if (args.length < spec!.min || args.length > spec!.max) {
      this.fail(`${name}() takes ${arity(spec!)}, not ${args.length}`, nameToken);
    }
    return node({ type: "call", name, args, pos: nameToken.pos });
  }

  /** Comma-separated expressions up to `close` (already past the opening bracket). */
  private list(close: string, depth: number): readonly Expression[] {
    const items: Expression[] = [];
    if (this.isPunct(this.peek(), close)) {
      this.next();
      return Object.freeze(items);
    }
    for (;;) {
      items.push(this.expression(0, depth + 1));
      const token = this.next();
      if (items.length > LIMITS.maxArrayLength) this.fail(`More than ${LIMITS.maxArrayLength} elements`, token);
      if (this.isPunct(token, close)) return Object.freeze(items);
      if (!this.isPunct(token, ",")) this.fail(`Expected ',' or '${close}' but found ${describe(token)}`, token);
    }
  }
}

function describe(token: Token): string {
  if (token.kind === "end") return "end of expression";
  const text = token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text;
  return `'${text}'`;
}

function arity(spec: FunctionSpec): string {
  const count = (n: number) => `${n} argument${n === 1 ? "" : "s"}`;
  if (spec.max === Infinity) return `at least ${count(spec.min)}`;
  if (spec.min === spec.max) return count(spec.min);
  return `${spec.min} to ${count(spec.max)}`;
}

function parseSource(source: string, base: number): Expression {
  if (typeof source !== "string") throw new ExpressionError("Expression must be text");
  if (source.length > LIMITS.maxSourceLength) {
    throw new ExpressionError(`Expression is longer than ${LIMITS.maxSourceLength} characters`);
  }
  return new Parser(tokenize(source, base)).parse();
}

/** Parses `source`, so a console form can refuse a bad expression when it is saved. */
export function parseExpression(source: string): Expression {
  return guarded(() => parseSource(source, 0));
}

// ---------------------------------------------------------------------------------------------------------
// Values

/** One evaluation's running costs. */
interface Context {
  steps: number;
  /** Object keys already listed: listing a huge object again must not cost its size again. */
  keys: WeakMap<object, string[]>;
}

function newContext(): Context {
  return { steps: 0, keys: new WeakMap() };
}

function charge(ctx: Context, steps = 1): void {
  ctx.steps += steps;
  if (ctx.steps > LIMITS.maxSteps) {
    throw new ExpressionError(`Expression needs more than ${LIMITS.maxSteps} steps to evaluate`);
  }
}

/** Object.keys, listed once per object per evaluation (see chargeScan). */
function keysOf(object: JsonObject, ctx: Context): string[] {
  let keys = ctx.keys.get(object);
  if (!keys) {
    keys = Object.keys(object);
    ctx.keys.set(object, keys);
    chargeScan(ctx, keys.length);
  }
  return keys;
}

/**
 * Native work over long input (comparing, searching or trimming megabytes of text, listing an object's
 * keys) is fast but not free: one step per 10,000 characters or keys, so repeating it runs out of steps.
 */
function chargeScan(ctx: Context, units: number): void {
  charge(ctx, Math.floor(units / 10_000));
}

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Admits a value read from the scope. The types promise JSON, but the caller's data is checked anyway:
 * a function, a class instance or NaN in it must not become reachable.
 */
function readJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new ExpressionError("Input contains a number that is not finite");
      return value;
    case "object": {
      if (Array.isArray(value)) return value as JsonValue[];
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return value as JsonObject;
    }
  }
  throw new ExpressionError("Input contains a value that is not JSON data");
}

function typeName(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new ExpressionError("Result is not a finite number");
  return value === 0 ? 0 : value; // no -0: it would print as 0 but compare oddly in callers
}

function tooLong(): ExpressionError {
  return new ExpressionError(`Result is longer than ${LIMITS.maxStringLength} characters`);
}

function bounded(text: string): string {
  if (text.length > LIMITS.maxStringLength) throw tooLong();
  return text;
}

/** Own keys only, and never the names that lead to prototypes. */
function hasKey(object: JsonObject, key: string): boolean {
  return !FORBIDDEN_NAMES.has(key) && Object.hasOwn(object, key);
}

function member(target: JsonValue, key: JsonValue): JsonValue {
  if (typeof key === "number") {
    if (!Number.isInteger(key)) throw new ExpressionError(`Index must be an integer, not ${key}`);
  } else if (typeof key !== "string") {
    throw new ExpressionError(`Property name must be a string or an integer, not ${typeName(key)}`);
  } else if (FORBIDDEN_NAMES.has(key)) {
    return null;
  }
  if (Array.isArray(target)) {
    if (key === "length") return target.length;
    if (typeof key !== "number" || key < 0 || key >= target.length || !Object.hasOwn(target, key)) return null;
    return readJson(target[key]);
  }
  if (typeof target === "string") {
    if (key === "length") return target.length;
    return typeof key === "number" && key >= 0 && key < target.length ? target.charAt(key) : null;
  }
  if (isObject(target)) {
    // Integer keys reach objects too: PHP and friends send sparse lists as {"1": …, "2": …}.
    const name = String(key);
    return hasKey(target, name) ? readJson(target[name]) : null;
  }
  // null, numbers and booleans have no properties (and must not reach Number.prototype & co).
  return null;
}

/**
 * Falsy: null, false, 0, "", and empty arrays and objects ("nothing there"). Everything else is truthy.
 * Empty collections differ from JavaScript on purpose, as in JSON Logic: `input.tags ? … : …` should mean
 * "has tags".
 */
export function isTruthy(value: JsonValue): boolean {
  return truthy(value, newContext());
}

function truthy(value: JsonValue, ctx: Context): boolean {
  if (value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return keysOf(value, ctx).length > 0;
  return true;
}

/** Structural equality, walked with an explicit stack and charged per node, so depth and size are bounded. */
function deepEqual(a: JsonValue, b: JsonValue, ctx: Context): boolean {
  const pending: unknown[] = [a, b];
  while (pending.length > 0) {
    const y = readJson(pending.pop());
    const x = readJson(pending.pop());
    charge(ctx);
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      charge(ctx, x.length);
      for (let i = 0; i < x.length; i += 1) pending.push(x[i], y[i]);
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const keys = keysOf(x, ctx);
      if (keys.length !== keysOf(y, ctx).length) return false;
      charge(ctx, keys.length);
      // Equality compares data as sent, so `__proto__` own keys count here like any other key.
      for (const key of keys) {
        if (!Object.hasOwn(y, key)) return false;
        pending.push(x[key], y[key]);
      }
    } else {
      if (typeof x === "string" && typeof y === "string" && x.length === y.length) chargeScan(ctx, x.length);
      if (x !== y) return false;
    }
  }
  return true;
}

/** `needle in haystack` and contains(): element of an array, substring of a string, own key of an object. */
function contains(haystack: JsonValue, needle: JsonValue, ctx: Context, what: string): boolean {
  if (haystack === null) return false; // a missing list contains nothing
  if (typeof haystack === "string") {
    if (typeof needle !== "string") throw new ExpressionError(`${what} needs a string to find in a string`);
    chargeScan(ctx, haystack.length);
    return haystack.includes(needle);
  }
  if (Array.isArray(haystack)) {
    for (let i = 0; i < haystack.length; i += 1) {
      if (deepEqual(readJson(haystack[i]), needle, ctx)) return true;
    }
    return false;
  }
  if (isObject(haystack)) {
    if (typeof needle === "number" && Number.isInteger(needle)) return hasKey(haystack, String(needle));
    if (typeof needle !== "string") throw new ExpressionError(`${what} needs a string key to find in an object`);
    return hasKey(haystack, needle);
  }
  throw new ExpressionError(`${what} needs an array, a string or an object, not ${typeName(haystack)}`);
}

/**
 * A value as text, as templates and string concatenation show it: strings as they are, null as "", numbers
 * and booleans as JavaScript prints them, arrays and objects as JSON.
 */
function toText(value: JsonValue, ctx: Context): string {
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return toJson(value, ctx);
  return String(value);
}

/**
 * JSON.stringify's output, without its recursion (deep input would overflow the stack) and stopping as
 * soon as the text passes the length limit rather than after building it.
 */
function toJson(root: JsonValue, ctx: Context): string {
  const parts: string[] = [];
  let length = 0;
  const emit = (text: string) => {
    length += text.length;
    if (length > LIMITS.maxStringLength) throw tooLong();
    parts.push(text);
  };
  // Values still to write, and punctuation to write when its turn comes; pushed in reverse.
  const stack: Array<{ value: unknown } | string> = [{ value: root }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === "string") {
      emit(item);
      continue;
    }
    charge(ctx);
    const value = readJson(item.value);
    if (Array.isArray(value)) {
      charge(ctx, value.length);
      stack.push("]");
      for (let i = value.length - 1; i >= 0; i -= 1) {
        stack.push({ value: value[i] });
        if (i > 0) stack.push(",");
      }
      emit("[");
    } else if (isObject(value)) {
      const keys = keysOf(value, ctx);
      charge(ctx, keys.length);
      stack.push("}");
      for (let i = keys.length - 1; i >= 0; i -= 1) {
        const key = keys[i]!;
        stack.push({ value: value[key] });
        stack.push(`${JSON.stringify(key)}:`);
        if (i > 0) stack.push(",");
      }
      emit("{");
    } else if (typeof value === "string") {
      if (length + value.length > LIMITS.maxStringLength) throw tooLong();
      emit(JSON.stringify(value));
    } else {
      emit(String(value)); // null, booleans and finite numbers print as JSON does
    }
  }
  return parts.join("");
}

// ---------------------------------------------------------------------------------------------------------
// Built-in functions

interface FunctionSpec {
  min: number;
  max: number;
  run(args: JsonValue[], ctx: Context): JsonValue;
}

function stringArg(fn: string, value: JsonValue): string {
  if (typeof value !== "string") throw new ExpressionError(`${fn}() needs a string, not ${typeName(value)}`);
  return value;
}

function numberArg(fn: string, value: JsonValue): number {
  if (typeof value !== "number") throw new ExpressionError(`${fn}() needs a number, not ${typeName(value)}`);
  return value;
}

/** Functions of one value pass null through, so `lower(input.missing)` is null rather than an error. */
function nullSafe(apply: (value: JsonValue, ctx: Context) => JsonValue): FunctionSpec {
  return { min: 1, max: 1, run: ([value = null], ctx) => (value === null ? null : apply(value, ctx)) };
}

function caseChange(fn: string, change: (text: string) => string): FunctionSpec {
  return nullSafe((value) => bounded(change(bounded(stringArg(fn, value)))));
}

function extreme(fn: string, pick: (a: number, b: number) => number): FunctionSpec {
  return {
    min: 1,
    max: Infinity,
    run(args, ctx) {
      // max(input.prices) as well as max(a, b, c).
      const first = args[0] ?? null;
      const values = args.length === 1 && Array.isArray(first) ? first : args;
      charge(ctx, values.length);
      let result: number | null = null;
      for (let i = 0; i < values.length; i += 1) {
        const value = numberArg(fn, readJson(values[i]));
        result = result === null ? value : pick(result, value);
      }
      return result;
    },
  };
}

// Decimal numbers only (no hex, no "Infinity"); unambiguous, so it cannot backtrack on long input.
const NUMERIC_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

// A Map, not an object literal: a name like "constructor" or "__proto__" must find nothing.
const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map<string, FunctionSpec>([
  ["lower", caseChange("lower", (text) => text.toLowerCase())],
  ["upper", caseChange("upper", (text) => text.toUpperCase())],
  [
    "trim",
    nullSafe((value, ctx) => {
      const text = stringArg("trim", value);
      chargeScan(ctx, text.length);
      return bounded(text.trim());
    }),
  ],
  [
    "length",
    {
      min: 1,
      max: 1,
      run([value = null], ctx) {
        if (value === null) return 0;
        if (typeof value === "string" || Array.isArray(value)) return value.length;
        if (isObject(value)) return keysOf(value, ctx).length;
        throw new ExpressionError(`length() needs a string, an array or an object, not ${typeName(value)}`);
      },
    },
  ],
  [
    "contains",
    {
      min: 2,
      max: 2,
      run: ([haystack = null, needle = null], ctx) => contains(haystack, needle, ctx, "contains()"),
    },
  ],
  [
    "startsWith",
    {
      min: 2,
      max: 2,
      run([text = null, prefix = null], ctx) {
        if (text === null) return false;
        const affix = stringArg("startsWith", prefix);
        chargeScan(ctx, affix.length);
        return stringArg("startsWith", text).startsWith(affix);
      },
    },
  ],
  [
    "endsWith",
    {
      min: 2,
      max: 2,
      run([text = null, suffix = null], ctx) {
        if (text === null) return false;
        const affix = stringArg("endsWith", suffix);
        chargeScan(ctx, affix.length);
        return stringArg("endsWith", text).endsWith(affix);
      },
    },
  ],
  [
    "round",
    {
      min: 1,
      max: 2,
      run([value = null, digits = 0]) {
        if (value === null) return null;
        const n = numberArg("round", value);
        const d = numberArg("round", digits);
        if (!Number.isInteger(d) || d < 0 || d > 15) throw new ExpressionError("round() digits must be 0 to 15");
        // toFixed rounds half away from zero on the exact binary value: round(2.5) is 3, round(-2.5) is -3.
        return finite(Number(n.toFixed(d)));
      },
    },
  ],
  ["floor", nullSafe((value) => finite(Math.floor(numberArg("floor", value))))],
  ["ceil", nullSafe((value) => finite(Math.ceil(numberArg("ceil", value))))],
  ["abs", nullSafe((value) => finite(Math.abs(numberArg("abs", value))))],
  ["min", extreme("min", Math.min)],
  ["max", extreme("max", Math.max)],
  [
    "number",
    nullSafe((value) => {
      if (typeof value === "number") return value;
      if (typeof value === "boolean") return value ? 1 : 0;
      if (typeof value !== "string") throw new ExpressionError(`number() cannot convert ${typeName(value)}`);
      // Not a number is null, so `default(number(input.qty), 1)` works; 400 characters is beyond any double.
      if (value.length > 400) return null;
      const text = value.trim();
      if (!NUMERIC_TEXT.test(text)) return null;
      return finite(Number(text));
    }),
  ],
  ["string", { min: 1, max: 1, run: ([value = null], ctx) => bounded(toText(value, ctx)) }],
  // Evaluated lazily by the evaluator (the fallback only runs when needed); this is the eager meaning.
  ["default", { min: 2, max: 2, run: ([value = null, fallback = null]) => (value === null ? fallback : value) }],
  [
    "join",
    {
      min: 2,
      max: 2,
      run([list = null, separator = null], ctx) {
        if (list === null) return "";
        if (!Array.isArray(list)) throw new ExpressionError(`join() needs an array, not ${typeName(list)}`);
        const sep = stringArg("join", separator);
        charge(ctx, list.length);
        const parts: string[] = [];
        let length = 0;
        for (let i = 0; i < list.length; i += 1) {
          const text = toText(readJson(list[i]), ctx);
          length += text.length + (i > 0 ? sep.length : 0);
          if (length > LIMITS.maxStringLength) throw tooLong();
          parts.push(text);
        }
        return parts.join(sep);
      },
    },
  ],
]);

// ---------------------------------------------------------------------------------------------------------
// Evaluator

function evaluateNode(expression: Expression, scope: Scope, ctx: Context): JsonValue {
  charge(ctx);
  switch (expression.type) {
    case "literal": {
      // Trees can arrive from elsewhere than the parser; a literal is only ever a JSON primitive.
      const value: unknown = expression.value;
      if (value === null || typeof value === "string" || typeof value === "boolean") return value;
      if (typeof value === "number") return finite(value);
      break;
    }
    case "array": {
      const items: JsonValue[] = [];
      if (expression.items.length > LIMITS.maxArrayLength) break;
      for (const item of expression.items) items.push(evaluateNode(item, scope, ctx));
      return items;
    }
    case "name": {
      const { name } = expression;
      if (!FORBIDDEN_NAMES.has(name) && Object.hasOwn(scope, name)) return readJson(scope[name]);
      throw new ExpressionError(`Unknown name '${name}'`);
    }
    case "member":
      return member(evaluateNode(expression.object, scope, ctx), evaluateNode(expression.property, scope, ctx));
    case "unary": {
      const operand = evaluateNode(expression.operand, scope, ctx);
      if (expression.operator === "!") return !truthy(operand, ctx);
      if (expression.operator === "-" && typeof operand === "number") return finite(-operand);
      if (expression.operator === "-") throw new ExpressionError(`Cannot negate ${typeName(operand)}`);
      break;
    }
    case "logical": {
      // Short-circuit, and the deciding operand is the result: `input.nickname || input.name`.
      const left = evaluateNode(expression.left, scope, ctx);
      if (expression.operator === "&&") return truthy(left, ctx) ? evaluateNode(expression.right, scope, ctx) : left;
      if (expression.operator === "||") return truthy(left, ctx) ? left : evaluateNode(expression.right, scope, ctx);
      break;
    }
    case "conditional":
      return truthy(evaluateNode(expression.test, scope, ctx), ctx)
        ? evaluateNode(expression.consequent, scope, ctx)
        : evaluateNode(expression.alternate, scope, ctx);
    case "binary":
      return binary(
        expression.operator,
        evaluateNode(expression.left, scope, ctx),
        evaluateNode(expression.right, scope, ctx),
        ctx,
      );
    case "call": {
      const spec = FUNCTIONS.get(expression.name);
      const { args } = expression;
      if (!spec) throw new ExpressionError(`Unknown function '${expression.name}'`);
      if (args.length < spec.min || args.length > spec.max) break;
      if (expression.name === "default") {
        const value = evaluateNode(args[0]!, scope, ctx);
        return value === null ? evaluateNode(args[1]!, scope, ctx) : value;
      }
      return spec.run(
        args.map((arg) => evaluateNode(arg, scope, ctx)),
        ctx,
      );
    }
  }
  throw new ExpressionError("Malformed expression");
}

function binary(operator: BinaryOperator, left: JsonValue, right: JsonValue, ctx: Context): JsonValue {
  switch (operator) {
    case "==":
      return deepEqual(left, right, ctx);
    case "!=":
      return !deepEqual(left, right, ctx);
    case "in":
      return contains(right, left, ctx, "'in'");
    case "<":
    case "<=":
    case ">":
    case ">=": {
      const comparable =
        (typeof left === "number" && typeof right === "number") ||
        (typeof left === "string" && typeof right === "string");
      if (!comparable) {
        throw new ExpressionError(`Cannot compare ${typeName(left)} with ${typeName(right)} using '${operator}'`);
      }
      const l = left as number | string;
      const r = right as number | string;
      if (typeof l === "string" && typeof r === "string") chargeScan(ctx, Math.min(l.length, r.length));
      return operator === "<" ? l < r : operator === "<=" ? l <= r : operator === ">" ? l > r : l >= r;
    }
    case "+":
      if (typeof left === "number" && typeof right === "number") return finite(left + right);
      if (typeof left === "string" || typeof right === "string") {
        const a = toText(left, ctx);
        const b = toText(right, ctx);
        // Measured before joining, so a 5 MB input doubled never gets built.
        if (a.length + b.length > LIMITS.maxStringLength) throw tooLong();
        return a + b;
      }
      throw new ExpressionError(`Cannot add ${typeName(left)} and ${typeName(right)}`);
    case "-":
    case "*":
    case "/":
    case "%": {
      if (typeof left !== "number" || typeof right !== "number") {
        throw new ExpressionError(`'${operator}' needs numbers, not ${typeName(left)} and ${typeName(right)}`);
      }
      if (operator === "-") return finite(left - right);
      if (operator === "*") return finite(left * right);
      if (operator === "/") return finite(left / right);
      return finite(left % right);
    }
  }
  throw new ExpressionError("Malformed expression");
}

/** Anything unexpected (a stack overflow, a bug) becomes an ExpressionError; nothing raw leaks out. */
function asExpressionError(error: unknown): ExpressionError {
  if (error instanceof ExpressionError) return error;
  const message =
    error instanceof RangeError ? "Expression is too large or too deeply nested" : "Expression could not be evaluated";
  return new ExpressionError(message, undefined, { cause: error });
}

function guarded<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw asExpressionError(error);
  }
}

/** Evaluates an expression (source, or a tree from parseExpression) against `scope`. */
export function evaluate(expression: Expression | string, scope: Scope): JsonValue {
  return guarded(() => {
    const tree = typeof expression === "string" ? parseSource(expression, 0) : expression;
    return evaluateNode(tree, scope, newContext());
  });
}

// ---------------------------------------------------------------------------------------------------------
// Templates

interface Placeholder {
  /** The whole `{{ … }}`, for error messages. */
  source: string;
  /** 1-based position of its `{{` in the template. */
  pos: number;
  expression: Expression;
}

/**
 * Where the `}}` closing a placeholder is: the first one outside a string literal, so `{{ "}}" }}` works
 * (and `{{ "{{" }}` writes a literal `{{`). With an unterminated quote, the first `}}` at all, so the
 * parser can report the quote rather than a missing `}}`.
 */
function findClose(template: string, from: number): number {
  for (let i = from; i < template.length; i += 1) {
    const ch = template[i];
    if (ch === "}" && template[i + 1] === "}") return i;
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < template.length && template[j] !== ch) j += template[j] === "\\" ? 2 : 1;
      if (j >= template.length) return template.indexOf("}}", from);
      i = j;
    }
  }
  return -1;
}

function quoted(placeholder: string): string {
  return placeholder.length > 60 ? `${placeholder.slice(0, 60)}…` : placeholder;
}

function parseTemplate(template: string): Array<string | Placeholder> {
  if (typeof template !== "string") throw new ExpressionError("Template must be text");
  // The output contains all the literal text, so a longer template could never render.
  if (template.length > LIMITS.maxStringLength) {
    throw new ExpressionError(`Template is longer than ${LIMITS.maxStringLength} characters`);
  }
  const parts: Array<string | Placeholder> = [];
  let count = 0;
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{{", i);
    if (open < 0) {
      parts.push(template.slice(i));
      break;
    }
    if (open > i) parts.push(template.slice(i, open));
    const close = findClose(template, open + 2);
    if (close < 0) throw new ExpressionError(`Unclosed '{{' at position ${open + 1}`, open + 1);
    count += 1;
    if (count > LIMITS.maxPlaceholders) {
      throw new ExpressionError(`Template has more than ${LIMITS.maxPlaceholders} placeholders`, open + 1);
    }
    const source = template.slice(open, close + 2);
    try {
      parts.push({ source, pos: open + 1, expression: parseSource(template.slice(open + 2, close), open + 2) });
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      const position = error.position ?? open + 1;
      throw new ExpressionError(`Placeholder ${quoted(source)}: ${error.message}`, position, { cause: error });
    }
    i = close + 2;
  }
  return parts;
}

/** Parses every `{{ }}` in `template`, so a console form can refuse a bad one when it is saved. */
export function checkTemplate(template: string): void {
  guarded(() => parseTemplate(template));
}

/**
 * Replaces each `{{ expr }}` with its value as text (see toText). The whole template is one evaluation as
 * far as limits go: its placeholders share one step budget, and the output is held to maxStringLength.
 */
export function renderTemplate(template: string, scope: Scope): string {
  return guarded(() => {
    const ctx = newContext();
    const out: string[] = [];
    let length = 0;
    for (const part of parseTemplate(template)) {
      let text: string;
      if (typeof part === "string") {
        text = part;
      } else {
        try {
          text = toText(evaluateNode(part.expression, scope, ctx), ctx);
        } catch (error) {
          const cause = asExpressionError(error);
          throw new ExpressionError(`Placeholder ${quoted(part.source)}: ${cause.message}`, part.pos, { cause });
        }
      }
      length += text.length;
      if (length > LIMITS.maxStringLength) throw tooLong();
      out.push(text);
    }
    return out.join("");
  });
}
