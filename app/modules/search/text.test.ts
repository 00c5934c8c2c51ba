import { describe, expect, it } from "vitest";
import {
  answerFrom,
  bestPassages,
  clip,
  plainText,
  queryGroups,
  sentences,
  splitAsks,
  stem,
  subjectOf,
  terms,
  words,
} from "./text";

describe("words and terms", () => {
  it("lower-cases, drops apostrophes, and keeps a time or an amount whole", () => {
    expect(words("Today's bookings: 2 at 17:00, €2.40!")).toEqual(["todays", "bookings", "2", "at", "17:00", "2.40"]);
    expect(words("Crème brûlée, ÜBER")).toEqual(["crème", "brûlée", "über"]);
  });

  it("leaves stop words out of a question's terms, and stems the rest", () => {
    expect(terms("What are your opening hours?")).toEqual(["open", "hour"]);
    expect(terms("What's in it for me?")).toEqual([]);
  });
});

describe("stem", () => {
  it("lets a word's forms meet: plural first, then the verb's ending, then a final e", () => {
    expect(["bookings", "booking", "booked"].map(stem)).toEqual(["book", "book", "book"]);
    expect(["classes", "class"].map(stem)).toEqual(["class", "class"]);
    expect(["pastries", "pastry"].map(stem)).toEqual(["pastri", "pastri"]);
    expect(["cakes", "cake", "baking", "baked", "bake"].map(stem)).toEqual(["cak", "cak", "bak", "bak", "bak"]);
  });

  it("leaves short words, numbers and a y after a vowel alone", () => {
    expect(["day", "17:00", "2009", "today", "monday", "need"].map(stem)).toEqual([
      "day",
      "17:00",
      "2009",
      "today",
      "monday",
      "need",
    ]);
  });
});

describe("plainText", () => {
  it("reads Markdown as lines: headings as introductions, a paragraph joined, table rows as cells without the header", () => {
    const markdown = [
      "## Breads",
      "",
      "Every loaf starts the evening before,",
      "and rises slowly.",
      "",
      "| Bread | Price |",
      "| --- | --- |",
      "| Seeded rye | €5.80 |",
      "| **Baguette** | €2.60 |",
      "",
      "- **Butter croissant** — €2.40",
      "- [Cardamom bun](https://example.com/bun) — €3.20",
      "",
      "## Something wrong?",
      "> Tell us.",
      "![A photo](photo.png)",
    ].join("\n");
    expect(plainText(markdown)).toBe(
      [
        "Breads:",
        "",
        "Every loaf starts the evening before, and rises slowly.",
        "",
        "Seeded rye: €5.80",
        "Baguette: €2.60",
        "",
        "Butter croissant — €2.40",
        "Cardamom bun — €3.20",
        "",
        "Something wrong?",
        "Tell us.",
      ].join("\n"),
    );
  });
});

describe("sentences", () => {
  it("splits at a full stop before a capital or a digit, and at every line break", () => {
    expect(
      sentences("Open daily. Closed on 25 December!\nSeeded rye: €5.80\nIs it vegan? Yes. 2 loaves left."),
    ).toEqual(["Open daily.", "Closed on 25 December!", "Seeded rye: €5.80", "Is it vegan?", "Yes.", "2 loaves left."]);
    expect(sentences("We bake rye, e.g. the seeded one.")).toEqual(["We bake rye, e.g. the seeded one."]);
  });
});

describe("queryGroups", () => {
  it("reads a question as the words that answer it, their synonyms, and weak verbs apart", () => {
    const groups = queryGroups("Can I bring my dog?");
    expect(groups.map((g) => [g.key, g.kind])).toEqual([
      ["bring", "weak"],
      ["dog", "content"],
    ]);
    expect(groups[1]!.stems).toContain("pet");
  });

  it("turns how a question is asked into the kind of answer it wants", () => {
    expect(queryGroups("How much is a croissant?").map((g) => [g.key, g.kind])).toEqual([
      ["price", "cue"],
      ["croissant", "content"],
    ]);
    // "opening hours": the time cue takes "hours", "opening" stays a word to match.
    expect(queryGroups("What are your opening hours?").map((g) => g.key)).toEqual(["time", "open"]);
    // "Where … come from" asks for an origin, not an address.
    expect(queryGroups("Where does your flour come from?").map((g) => g.key)).toEqual(["origin", "flour"]);
  });

  it("lets a weekday be found inside a range of days", () => {
    const [wednesday] = queryGroups("Wednesday");
    expect(wednesday!.pattern!.test("Tuesday – Thursday: 7:30–17:00")).toBe(true);
    expect(wednesday!.pattern!.test("Thursday – Saturday: 8:00–16:00")).toBe(false);
  });
});

const MENU = [
  "Breads:",
  "Seeded rye: €5.80",
  "Baguette: €2.60",
  "Pastries:",
  "Butter croissant — €2.40",
  "Cardamom bun — €3.20",
  "Coffee:",
  "Espresso drinks with beans from a roaster. Filter coffee on weekend mornings.",
].join("\n");

describe("bestPassages", () => {
  it("never quotes a question restated in the text, and quotes its answer whole, caveat and all", () => {
    const faq = [
      "Allergies:",
      "Is your rye bread wheat-free? Our seeded rye is baked with rye flour only, so it contains no wheat. It does contain gluten.",
      "Opening hours: Tuesday – Saturday: 8:00–16:00.",
    ].join("\n");
    expect(bestPassages(faq, "Is the rye bread wheat free?").map((p) => p.text)).toEqual([
      "Our seeded rye is baked with rye flour only, so it contains no wheat. It does contain gluten.",
    ]);
    // Asked about the one sentence, the answer still carries the warning after it.
    const cake =
      "Do you bake anything gluten-free? Our almond cake is gluten-free. Everything is made in one kitchen, so we cannot promise it is free of traces.";
    expect(bestPassages(cake, "Is the almond cake safe for coeliacs?").map((p) => p.text)).toEqual([
      "Our almond cake is gluten-free. Everything is made in one kitchen, so we cannot promise it is free of traces.",
    ]);
  });

  it("quotes a list with its heading when the list is the answer, and one line when a line is", () => {
    expect(bestPassages(MENU, "What pastries do you sell?").map((p) => p.text)).toEqual([
      "Pastries: Butter croissant — €2.40; Cardamom bun — €3.20",
    ]);
    expect(bestPassages(MENU, "How much is the cardamom bun?").map((p) => p.text)).toEqual(["Cardamom bun — €3.20"]);
  });

  it("finds nothing for a question the text does not touch", () => {
    expect(bestPassages(MENU, "Who won the world cup in 1966?")).toEqual([]);
    expect(bestPassages(MENU, "hi")).toEqual([]);
  });
});

describe("answerFrom", () => {
  it("answers a price only with an amount beside what was asked about", () => {
    expect(answerFrom(MENU, queryGroups("How much is a baguette?")).strength).toBe(1);
    // Espresso is on the menu and so are prices, but never in the same place.
    expect(answerFrom(MENU, queryGroups("How much is an espresso?")).strength).toBe(0);
  });

  it("reads every passage under the document's title", () => {
    const service = "Three hours in our kitchen on a Saturday morning.\nUp to 8 places per session.";
    const reading = answerFrom(service, queryGroups("How many people can join the sourdough class?"), {
      title: "Sourdough baking class",
    });
    expect(reading.passages.map((p) => p.text)).toContain("Up to 8 places per session.");
    expect(reading.strength).toBe(1);
  });
});

describe("splitAsks and subjectOf", () => {
  it("splits where a new ask plainly starts, never inside an address or a pair of things", () => {
    expect(splitAsks("Show me today's bookings and what is low on stock")).toEqual([
      "Show me today's bookings",
      "what is low on stock",
    ]);
    expect(splitAsks("Find mira.okafor@example.com please")).toEqual(["Find mira.okafor@example.com please"]);
    expect(splitAsks("Do you sell bread and butter?")).toEqual(["Do you sell bread and butter"]);
  });

  it("says what a question is about, for a later ask that only says “it”", () => {
    expect(subjectOf("What's the price of the sourdough class")).toBe("sourdough class");
  });
});

describe("clip", () => {
  it("cuts at a word and marks the cut", () => {
    expect(clip("short", 10)).toBe("short");
    expect(clip("Seeded rye, baguette and buns", 24)).toBe("Seeded rye, baguette…");
  });
});
