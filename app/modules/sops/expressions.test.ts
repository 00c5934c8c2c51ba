import { describe, expect, it } from "vitest";
import {
  ExpressionError,
  LIMITS,
  checkTemplate,
  evaluate,
  isTruthy,
  parseExpression,
  renderTemplate,
  type JsonValue,
  type Scope,
} from "./expressions";

const input = {
  name: "Ada",
  nickname: "",
  email: "ADA@Example.com ",
  age: 36,
  score: 2.345,
  active: true,
  tags: ["vip", "beta"],
  prices: [3, 10, 7],
  items: [
    { sku: "A-1", qty: 2 },
    { sku: "B-2", qty: 1 },
  ],
  user: { address: { city: "London" } },
  "first name": "Augusta",
  sparse: { "1": "one", "2": "two" },
  nothing: null,
};
const scope: Scope = { input, vars: { threshold: 10 }, steps: {} };

const run = (source: string, s: Scope = scope) => evaluate(source, s);

/** The call must either give a JSON value back or fail with ExpressionError — never another error. */
function valueOrExpressionError(call: () => unknown): unknown {
  try {
    return call();
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
    return error;
  }
}

describe("expressions", () => {
  it.each<[string, JsonValue]>([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["2 * 3 % 4", 2],
    ["-2 * 3", -6],
    ["- -2", 2],
    ["7 / 2", 3.5],
    ["1.5e2 + 0.25", 150.25],
    ["1 + 2 == 3", true],
    ["1 < 2 == 2 > 1", true],
    ["1 == '1'", false],
    ["null == null", true],
    ["[1, [2, 'x']] == [1, [2, 'x']]", true],
    ["[1, 2] != [2, 1]", true],
    ["input.user == input.user", true],
    ["input.items[0] == input.items[1]", false],
    ["'apple' < 'banana'", true],
    ["2 >= 2 && 2 <= 2", true],
    ["!true || !false", true],
    ["true && false || true", true],
    ["!(1 == 1)", false],
    ["1 > 2 ? 'big' : 'small'", "small"],
    ["false ? 1 : true ? 2 : 3", 2],
    ["input.age >= 18 ? 'adult' : 'minor'", "adult"],
    ["'n=' + 5", "n=5"],
    ["1 + 2 + 'x'", "3x"],
    ["'x' + null + true", "xtrue"],
    ["'tags: ' + input.tags", 'tags: ["vip","beta"]'],
    ["\"a\\\"b\" + 'it\\'s'", "a\"bit's"],
    ['"caf\\u00e9\\n\\t\\\\"', "café\n\t\\"],
    ["'x' in ['x', 'y']", true],
    ["'z' in ['x', 'y']", false],
    ["[2] in [[1], [2]]", true],
    ["'ell' in 'hello'", true],
    ["'name' in input", true],
    ["'missing' in input", false],
    ["'toString' in input", false],
    ["'x' in input.missing", false],
    ["1 in input.sparse", true],
  ])("%s → %j", (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it("reads paths into the scope", () => {
    expect(run("input.name")).toBe("Ada");
    expect(run("input.user.address.city")).toBe("London");
    expect(run("input.items[1].sku")).toBe("B-2");
    expect(run("input.items[input.items.length - 1].qty")).toBe(1);
    expect(run("input['first name']")).toBe("Augusta");
    expect(run("input.sparse[2]")).toBe("two");
    expect(run("input.tags.length + input.name.length")).toBe(5);
    expect(run("input.name[0]")).toBe("A");
    expect(run("vars.threshold * 2")).toBe(20);
    expect(run("input.tags")).toEqual(["vip", "beta"]);
  });

  it("reads a missing property, or a property of null, as null", () => {
    expect(run("input.phone")).toBeNull();
    expect(run("input.phone.country.code")).toBeNull();
    expect(run("input.email == null")).toBe(false);
    expect(run("input.phone == null")).toBe(true);
    expect(run("input.items[5]")).toBeNull();
    expect(run("input.items[-1]")).toBeNull();
    expect(run("input.age.toFixed")).toBeNull();
    expect(run("input.nothing.x")).toBeNull();
  });

  it("refuses unknown names, non-integer indexes and mixed comparisons", () => {
    expect(() => run("foo + 1")).toThrow(new ExpressionError("Unknown name 'foo'"));
    expect(() => run("input.items[1.5]")).toThrow(/integer/);
    expect(() => run("input.items[true]")).toThrow(ExpressionError);
    expect(() => run("1 < '2'")).toThrow("Cannot compare number with string using '<'");
    expect(() => run("null > 0")).toThrow(ExpressionError);
    expect(() => run("1 + true")).toThrow("Cannot add number and boolean");
    expect(() => run("'a' - 1")).toThrow(ExpressionError);
    expect(() => run("-'a'")).toThrow(ExpressionError);
    expect(() => run("1 in 5")).toThrow(ExpressionError);
  });

  it("refuses results that are not finite numbers", () => {
    for (const source of ["1 / 0", "0 / 0", "5 % 0", "-1 / 0", "1e308 * 10"]) {
      expect(() => run(source), source).toThrow("Result is not a finite number");
    }
    expect(() => parseExpression("1e999")).toThrow(ExpressionError);
  });

  it("short-circuits && || ?: and default(), and returns the deciding operand", () => {
    expect(run("false && 1 / 0")).toBe(false);
    expect(run("true || nope")).toBe(true);
    expect(run("true ? 1 : 1 / 0")).toBe(1);
    expect(run("default(1, 1 / 0)")).toBe(1);
    expect(run("input.nickname || input.name")).toBe("Ada");
    expect(run("input.name && input.age")).toBe(36);
  });

  it.each<[string, JsonValue]>([
    ["lower(input.name)", "ada"],
    ["upper('abc')", "ABC"],
    ["trim(input.email)", "ADA@Example.com"],
    ["lower(trim(input.email)) == 'ada@example.com'", true],
    ["lower(input.missing)", null],
    ["length(input.tags)", 2],
    ["length('four')", 4],
    ["length(input.user)", 1],
    ["length(input.missing)", 0],
    ["contains(input.tags, 'vip')", true],
    ["contains(input.email, '@')", true],
    ["contains(input.missing, 'x')", false],
    ["startsWith(input.name, 'Ad')", true],
    ["endsWith(input.name, 'x')", false],
    ["startsWith(input.missing, 'x')", false],
    ["round(input.score, 1)", 2.3],
    ["round(3.14159, 2)", 3.14],
    ["round(2.5)", 3],
    ["round(-2.5)", -3],
    ["floor(-1.5)", -2],
    ["ceil(1.2)", 2],
    ["abs(-4)", 4],
    ["min(3, 1, 2)", 1],
    ["max(input.prices)", 10],
    ["min([])", null],
    ["number('42.5')", 42.5],
    ["number(' -1e3 ')", -1000],
    ["number('12abc')", null],
    ["number('0x10')", null],
    ["number(true)", 1],
    ["string(12) + string(true) + string(null)", "12true"],
    ["string(input.items[0])", '{"sku":"A-1","qty":2}'],
    ["default(input.phone, 'n/a')", "n/a"],
    ["default(input.nickname, 'n/a')", ""],
    ["join(input.tags, ', ')", "vip, beta"],
    ["join([1, null, 'x', [2]], '|')", "1||x|[2]"],
    ["join(input.missing, ',')", ""],
  ])("%s → %j", (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it("checks function names and argument counts when parsing", () => {
    expect(() => parseExpression("now()")).toThrow("Unknown function 'now' at position 1");
    expect(() => parseExpression("1 + eval('1')")).toThrow("Unknown function 'eval' at position 5");
    expect(() => parseExpression("lower('a', 'b')")).toThrow("lower() takes 1 argument, not 2");
    expect(() => parseExpression("default(1)")).toThrow("default() takes 2 arguments, not 1");
    expect(() => parseExpression("max()")).toThrow("max() takes at least 1 argument, not 0");
    expect(() => run("lower(5)")).toThrow("lower() needs a string, not number");
    expect(() => run("round(1, 1.5)")).toThrow(ExpressionError);
  });

  it("names the position of a syntax error", () => {
    const cases: Array<[string, RegExp, number]> = [
      ["1 +", /Unexpected end of expression at position 4/, 4],
      ["input..name", /Expected a property name after '.' but found '.' at position 7/, 7],
      ["(1 + 2", /Expected '\)' to close the '\(' at position 1 but found end of expression/, 7],
      ["'abc", /Unterminated string at position 1/, 1],
      ["a = 1", /Unexpected character '=' \(use '==' to compare\) at position 3/, 3],
      ["a === 1", /Use '==' instead of '==='/, 3],
      ["a & b", /use '&&'/, 3],
      ["1 2", /Unexpected '2' at position 3/, 3],
      ["12abc", /Invalid number/, 1],
      ["'\\x'", /Unknown escape '\\x' at position 2/, 2],
      ["input.name()", /Only built-in functions can be called/, 11],
      ["", /Empty expression/, 1],
      ["[1, 2", /Expected ',' or '\]'/, 6],
      ["input.items.0", /Use \[0\] for an index/, 13],
      ["true ? 1", /Expected ':' for the '\?' at position 6/, 9],
    ];
    for (const [source, message, position] of cases) {
      let error: unknown;
      try {
        parseExpression(source);
      } catch (caught) {
        error = caught;
      }
      expect(error, source).toBeInstanceOf(ExpressionError);
      expect((error as ExpressionError).message, source).toMatch(message);
      expect((error as ExpressionError).position, source).toBe(position);
    }
  });

  it("evaluates a parsed tree again and again, and the tree cannot be changed", () => {
    const tree = parseExpression("input.age + vars.threshold");
    expect(evaluate(tree, scope)).toBe(46);
    expect(evaluate(tree, { input: { age: 1 }, vars: { threshold: 2 } })).toBe(3);
    expect(Object.isFrozen(tree)).toBe(true);
    expect(() => {
      (tree as { type: string }).type = "name";
    }).toThrow(TypeError);
  });

  it("treats null, false, 0, '' and empty arrays and objects as false", () => {
    for (const value of [null, false, 0, "", [], {}]) expect(isTruthy(value), JSON.stringify(value)).toBe(false);
    for (const value of [true, 1, -1, "0", "false", [0], { a: null }]) {
      expect(isTruthy(value), JSON.stringify(value)).toBe(true);
    }
    expect(run("input.tags ? 'tagged' : 'untagged'")).toBe("tagged");
    expect(run("[] ? 'tagged' : 'untagged'")).toBe("untagged");
  });
});

describe("hostile expressions", () => {
  const polluting = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"a":1}');
  const hostileScope: Scope = { input: polluting, vars: {} };

  it("cannot call anything but the built-ins", () => {
    for (const source of [
      'input.constructor.constructor("return process")()',
      'input["constructor"]["constructor"]("return process")()',
      '[].constructor.constructor("return process")()',
      "input.toString()",
      "(lower)('a')",
      "constructor('x')",
      "toString()",
      "__proto__()",
      "hasOwnProperty('a')",
    ]) {
      expect(() => parseExpression(source), source).toThrow(ExpressionError);
      expect(() => evaluate(source, hostileScope), source).toThrow(ExpressionError);
    }
  });

  it.each([
    "input.constructor",
    "input['constructor']",
    "input['con' + 'structor']",
    "input.constructor.prototype",
    "input.__proto__",
    "input['__proto__']",
    "input.__proto__.polluted",
    "input.prototype",
    "[].constructor",
    "[]['constructor']",
    "''.constructor",
    "'abc'.constructor.name",
    "(1).constructor",
    "true.constructor",
    "input.toString",
    "input.hasOwnProperty",
    "input.valueOf",
    "input.a.constructor",
    "vars.__defineGetter__",
    "constructor",
    "__proto__",
    "toString",
    "hasOwnProperty",
    "lower",
  ])("%s is null or refused", (source) => {
    for (const s of [scope, hostileScope]) {
      const result = valueOrExpressionError(() => evaluate(source, s));
      if (!(result instanceof ExpressionError)) expect(result).toBeNull();
    }
  });

  it("does not see '__proto__' or 'constructor' as keys, even when the data has them", () => {
    expect(evaluate("'__proto__' in input", hostileScope)).toBe(false);
    expect(evaluate("'constructor' in input", hostileScope)).toBe(false);
    expect(evaluate("contains(input, 'constructor')", hostileScope)).toBe(false);
    expect(evaluate("'a' in input", hostileScope)).toBe(true);
  });

  it("never pollutes Object.prototype", () => {
    const templates = [
      "{{ input }}",
      "{{ input.__proto__ }}{{ input.__proto__.polluted }}",
      "{{ input.constructor.prototype.polluted }}",
      "{{ input['__proto__'] == input.constructor }}",
      "{{ string(input) }} {{ join([input], ',') }} {{ input == input }}",
    ];
    for (const template of templates) valueOrExpressionError(() => renderTemplate(template, hostileScope));
    // The `__proto__` key is rendered as the data it is, not followed.
    expect(renderTemplate("{{ input }}", hostileScope)).toBe(JSON.stringify(polluting));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });

  it("refuses scope values that are not JSON, and turns any other failure into an ExpressionError", () => {
    const odd = {
      input: {
        fn: () => 1,
        date: new Date(0),
        map: new Map(),
        nan: NaN,
        get trap(): JsonValue {
          throw new TypeError("boom");
        },
      },
    } as unknown as Scope;
    for (const source of ["input.fn", "input.date", "input.map", "input.nan", "input.trap", "string(input)"]) {
      expect(() => evaluate(source, odd), source).toThrow(ExpressionError);
    }
  });
});

describe("limits on hostile input", () => {
  const deepArray = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth));
  const deepObject = (depth: number) => JSON.parse('{"a":'.repeat(depth) + "null" + "}".repeat(depth));

  it("refuses long sources and deep nesting when parsing", () => {
    expect(() => parseExpression("1+".repeat(500_000) + "1")).toThrow(`longer than ${LIMITS.maxSourceLength}`);
    expect(() => parseExpression("(".repeat(10_000) + "1" + ")".repeat(10_000))).toThrow(ExpressionError);
    expect(() => parseExpression("(".repeat(40) + "1" + ")".repeat(40))).toThrow(/nested too deeply/);
    expect(() => parseExpression("!".repeat(1000) + "true")).toThrow(/nested too deeply/);
    expect(() => parseExpression("-".repeat(1000) + "1")).toThrow(/nested too deeply/);
    expect(() => parseExpression("[".repeat(40) + "]".repeat(40))).toThrow(/nested too deeply/);
    expect(() => parseExpression("lower(".repeat(40) + "'a'" + ")".repeat(40))).toThrow(/nested too deeply/);
    expect(run("(".repeat(20) + "1" + ")".repeat(20))).toBe(1);
    expect(run("!".repeat(20) + "true")).toBe(true);
  });

  it("handles long flat expressions up to the source limit", () => {
    const source = "1" + "+1".repeat(Math.floor((LIMITS.maxSourceLength - 1) / 2));
    expect(source.length).toBeLessThanOrEqual(LIMITS.maxSourceLength);
    expect(run(source)).toBe(1000);
    expect(run("input" + ".x".repeat(997))).toBeNull();
    expect(run(`[${"1,".repeat(998)}1]`)).toHaveLength(999);
  });

  it("reads 100,000-deep input without overflowing the stack", () => {
    const deep = { input: { deep: deepArray(100_000), other: deepArray(100_000), obj: deepObject(100_000) } };
    expect(evaluate("input.deep[0][0][0] == null", deep)).toBe(false);
    expect(evaluate("length(input.deep)", deep)).toBe(1);
    expect(evaluate("input.obj.a.a.a.a != null", deep)).toBe(true);
    for (const source of [
      "input.deep == input.other",
      "input.deep[0][0] != input.other[0][0]",
      "input.obj == input.obj",
      "input.deep in [input.other]",
      "contains([input.other], input.deep)",
      "string(input.deep)",
      "'x' + input.obj",
      "join([input.deep], ',')",
    ]) {
      expect(() => evaluate(source, deep), source).toThrow(ExpressionError);
    }
    for (const template of ["{{ input.deep }}", "{{ input }}"]) {
      expect(() => renderTemplate(template, deep), template).toThrow(ExpressionError);
    }
  });

  it("refuses to build strings past the length limit", () => {
    const huge = { input: { s: "x".repeat(5_000_000) } };
    expect(() => evaluate("input.s + input.s", huge)).toThrow(`longer than ${LIMITS.maxStringLength}`);
    expect(() => evaluate("upper(input.s)", huge)).toThrow(ExpressionError);
    expect(() => evaluate("join([input.s, input.s], '')", huge)).toThrow(ExpressionError);
    expect(() => renderTemplate("{{ input.s }}", huge)).toThrow(ExpressionError);
    expect(() => renderTemplate("x".repeat(LIMITS.maxStringLength + 1), {})).toThrow(ExpressionError);
    // Reading and measuring a huge value is fine; only producing one is refused.
    expect(evaluate("length(input.s)", huge)).toBe(5_000_000);
    expect(evaluate("contains(input.s, 'y')", huge)).toBe(false);
  });

  it("stops after maxSteps of work", () => {
    const numbers = Array.from({ length: LIMITS.maxSteps * 2 }, (_, i) => i);
    const big = { input: { list: numbers, copy: [...numbers], strings: numbers.map(String) } };
    for (const source of [
      "join(input.list, ',')",
      "-1 in input.list",
      "contains(input.list, -1)",
      "input.list == input.copy",
      "max(input.list)",
      "length(string(input.strings)) > 0",
    ]) {
      expect(() => evaluate(source, big), source).toThrow(`more than ${LIMITS.maxSteps} steps`);
    }
    // Native scans of huge text are charged too, so repeating one cannot multiply its cost without bound.
    const text = { input: { s: "x".repeat(5_000_000) } };
    expect(evaluate("contains(input.s, 'y')", text)).toBe(false);
    expect(() => evaluate(Array(30).fill("contains(input.s, 'y')").join(" || "), text)).toThrow(/steps/);
    // A template is one evaluation: its placeholders share the budget.
    const sixThousand = { input: { list: numbers.slice(0, 6000) } };
    expect(renderTemplate("{{ -1 in input.list }}", sixThousand)).toBe("false");
    expect(() => renderTemplate("{{ -1 in input.list }} {{ -1 in input.list }}", sixThousand)).toThrow(/steps/);
    // The same work on a small list is fine.
    const small = { input: { list: numbers.slice(0, 100) } };
    expect(evaluate("max(input.list)", small)).toBe(99);
    expect(evaluate("99 in input.list", small)).toBe(true);
  });
});

describe("templates", () => {
  it("renders placeholders as text", () => {
    expect(renderTemplate("Hello {{ input.name }}", scope)).toBe("Hello Ada");
    expect(renderTemplate("Hello {{input.name}}!", scope)).toBe("Hello Ada!");
    expect(renderTemplate("{{ input.phone }}|{{ input.nothing }}", scope)).toBe("|");
    expect(renderTemplate("{{ input.age }} {{ input.active }} {{ 0.5 }}", scope)).toBe("36 true 0.5");
    expect(renderTemplate("{{ input.items[0] }}", scope)).toBe('{"sku":"A-1","qty":2}');
    expect(renderTemplate("{{ input.tags }}", scope)).toBe('["vip","beta"]');
    expect(renderTemplate("{{\n  upper(input.name)\n}} and {{ join(input.tags, ' & ') }}", scope)).toBe(
      "ADA and vip & beta",
    );
  });

  it("leaves text outside placeholders alone", () => {
    expect(renderTemplate("", scope)).toBe("");
    expect(renderTemplate("no placeholders } here }}", scope)).toBe("no placeholders } here }}");
    expect(renderTemplate('{{ "}}" }} and {{ "{{" }}', scope)).toBe("}} and {{");
  });

  it("refuses an unclosed placeholder", () => {
    expect(() => renderTemplate("Hello {{ input.name", scope)).toThrow("Unclosed '{{' at position 7");
    expect(() => checkTemplate("a {{ 1 }} b {{")).toThrow("Unclosed '{{' at position 13");
  });

  it("names the bad placeholder", () => {
    expect(() => checkTemplate("Hi {{ input.name }}, see {{ input..b }}")).toThrow(
      "Placeholder {{ input..b }}: Expected a property name after '.' but found '.' at position 35",
    );
    expect(() => checkTemplate("{{ nope(1) }}")).toThrow("Placeholder {{ nope(1) }}: Unknown function 'nope'");
    expect(() => checkTemplate("{{ 'abc }}")).toThrow(/Unterminated string/);
    expect(() => checkTemplate("{{ }}")).toThrow(/Empty expression/);
    expect(() => renderTemplate("ok {{ 1 / 0 }}", scope)).toThrow(
      "Placeholder {{ 1 / 0 }}: Result is not a finite number",
    );
    expect(() => renderTemplate("{{ who }}", scope)).toThrow("Placeholder {{ who }}: Unknown name 'who'");
    expect(() => checkTemplate("Dear {{ input.name }}, {{ upper(input.name) }}")).not.toThrow();
  });

  it("allows at most maxPlaceholders placeholders", () => {
    expect(renderTemplate("{{ 1 }}".repeat(LIMITS.maxPlaceholders), scope)).toBe("1".repeat(LIMITS.maxPlaceholders));
    expect(() => checkTemplate("{{ 1 }}".repeat(LIMITS.maxPlaceholders + 1))).toThrow(/more than 100 placeholders/);
  });
});
