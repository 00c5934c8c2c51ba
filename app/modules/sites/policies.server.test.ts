import { describe, expect, it } from "vitest";
import { markdownIssue, policyDescription } from "./policies.server";

describe("markdownIssue", () => {
  it.each([
    "<script>alert(1)</script>",
    "Hello <b>bold</b>",
    "<img src=x onerror=alert(1)>",
    "<iframe src=https://x>",
    "</div>",
  ])("refuses raw HTML: %j", (markdown) => {
    expect(markdownIssue(markdown)).toMatch(/^Remove the HTML/);
  });

  it.each([
    "[x](javascript:alert(1))",
    "[x]( JavaScript:alert(1))",
    "[x](<javascript:alert(1)>)",
    "<javascript:alert(1)>",
    "[x]: javascript:alert(1)",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox)",
  ])("refuses a link that is not to the web, mail or phone: %j", (markdown) => {
    expect(markdownIssue(markdown)).toBe("Links must start with https://, http://, mailto: or tel:");
  });

  it.each([
    "## Data\n\nPersonal data: your name and e-mail.",
    "Orders < 50 € ship for 4 €, orders > 50 € ship free.",
    "Write to [us](mailto:hello@example.com) or [call](tel:+441234) or see <https://example.com>.",
    "Use `a < b` and 1<2.",
  ])("accepts ordinary text: %j", (markdown) => {
    expect(markdownIssue(markdown)).toBeUndefined();
  });
});

describe("policyDescription", () => {
  it("is the first paragraph that is not a heading, as plain text", () => {
    expect(
      policyDescription({ markdown: "## Intro\n\nWe **care** about [you](https://x.example).\n\n## More\n\nText" }),
    ).toBe("We care about you.");
  });
});
