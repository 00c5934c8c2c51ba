/**
 * Text handling shared by the content index and the assistant's extractive answers (ADR 037): one tokenizer for
 * what is indexed and what is asked, so a word matches itself; a question read as the groups of words that would
 * answer it (its own words, their synonyms, and the kind of answer it wants: an amount, a time, a place); sentences
 * and sections read out of Markdown-ish text; and the passages of a document that answer a question best. Plain
 * functions, no server imports: unit tests drive them.
 */

/**
 * Words that say nothing about which document answers ("what are your …"): left out of the index and the query
 * alike, so a question is matched on its content words. Kept short on purpose: "open", "closed", "not" stay.
 * Contractions lose their apostrophe before they get here ("what's" is "whats").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or of to in on at for from by with about into as is are was were be been being am do does did " +
    "i me my we us our you your yours he she it its they them their this that these those there here " +
    "what which who whom whose when where why how can could would should will shall may might must " +
    "please tell show give let know find get any some much many very just also too so than then " +
    "have has had hi hello hey thanks thank " +
    "whats whos wheres whens hows im ive id youre theyre dont doesnt didnt cant cannot wont isnt arent u r ur " +
    "someone something anything anyone everyone everything somebody anybody somewhere anywhere every each all " +
    "if but because while whether though"
  ).split(" "),
);

/**
 * Lower-cased words (letters and digits, any script), apostrophes dropped: "Today's" → "todays". A time or an
 * amount stays whole ("17:00", "2.40"), so the 17 a question asks about is not found inside a closing time.
 */
export function words(text: string): string[] {
  return (text
    .toLowerCase()
    .normalize("NFKC")
    .replace(/['’]/g, "")
    .match(/[\p{L}\p{N}]+(?:[:.,]\p{N}+)*/gu) ?? []) as string[];
}

/**
 * A rough English stem, so a word's forms meet: "bookings", "booking" and "booked" are "book"; "classes" and "class"
 * "class"; "pastries" and "pastry" "pastri"; "cakes", "cake", "baked" and "baking" lose their e ("cak", "bak"). A
 * plural goes first, then a verb's ending, as long as three letters are left.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies")) w = w.slice(0, -2);
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  for (const suffix of ["ing", "ed"]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  // "pastry" meets "pastries" at "pastri" (a y after a consonant only: "today" stays).
  if (/[^aeiou]y$/.test(w) && w.length > 3) w = `${w.slice(0, -1)}i`;
  return w.endsWith("e") && w.length > 3 ? w.slice(0, -1) : w;
}

/** The content terms of a text: words, stop words out, stemmed. What the index stores and a query asks for. */
export function terms(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

/**
 * Markdown as the sentences a reader sees: links as their text, emphasis and table rules dropped, a table row as its
 * cells ("Baguette: €2.60") and its header row left out (column names answer nothing), a list item on its own line,
 * and the lines of one paragraph joined (a single line break in Markdown is a space, so a sentence is never cut in
 * two). A heading ends with a colon, so it reads as what introduces the lines under it ("Pastries:"), unless it ends
 * with its own punctuation ("Something wrong?").
 */
export function plainText(markdown: string): string {
  const out: string[] = [];
  let paragraph = false;
  let tableRow = false;
  for (const raw of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    let line = raw.trim();
    if (!line) {
      if (out.length && out[out.length - 1] !== "") out.push("");
      paragraph = false;
      tableRow = false;
      continue;
    }
    // A table's rule row says nothing, and the row above it is the header; the other rows are their cells.
    if (/^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$/.test(line)) {
      if (tableRow) out.pop();
      tableRow = false;
      continue;
    }
    const row = /^\|(.*)\|$/.exec(line);
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    const item = /^(?:[-*+]|\d{1,3}[.)])\s+(.*)$/.exec(line);
    let own = true;
    if (row) {
      line = row[1]!
        .split("|")
        .map((c) => c.trim())
        .filter(Boolean)
        .join(": ");
    } else if (heading) {
      line = heading[1]!;
      line = inline(line);
      if (!/[.!?:]$/.test(line)) line += ":";
      out.push(line);
      paragraph = false;
      tableRow = false;
      continue;
    } else if (item) {
      line = item[1]!;
    } else {
      line = line.replace(/^>\s?/, "");
      own = false;
    }
    line = inline(line);
    if (!line) continue;
    // A paragraph's next line continues its sentence; a list item or a table row is a line of its own.
    if (!own && paragraph && out.length) out[out.length - 1] += ` ${line}`;
    else out.push(line);
    paragraph = !own;
    tableRow = Boolean(row);
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Inline Markdown as text: images out, links as their text, emphasis, code marks and tags dropped. */
function inline(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~]+/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/[ \t]+/g, " ")
    .trim();
}

/** Sentences and list lines of a plain text, each trimmed; a line break always ends one. */
export function sentences(text: string): string[] {
  return text.split(/\n+/).flatMap(sentencesOfLine);
}

function sentencesOfLine(line: string): string[] {
  return line
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"“(])/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 1 && /[\p{L}\p{N}]/u.test(s));
}

/** "Do you deliver?" (and a heading's "Allergies?." from a block that adds its own full stop). */
const isQuestion = (sentence: string) => /\?\.?$/.test(sentence);

// ---- Questions as groups of words that answer them ----------------------------------------------------------------

/**
 * One thing a question asks for, and what in a text answers it: its word and the words that mean the same here
 * (`stems`), or, for the kind of answer it wants, text of that shape (`pattern`: an amount for "how much").
 * `content` groups count by how rare they are in the index; `weak` ones (verbs any question has: "bring", "sell")
 * count for little; a `cue` must be answered by the passage itself, or the document does not answer.
 */
export interface QueryGroup {
  key: string;
  stems: readonly string[];
  pattern?: RegExp;
  kind: "content" | "weak" | "cue";
}

/** Words that mean the same thing to a customer of a small business, each line one meaning. */
const SYNONYMS: readonly string[] = [
  "gluten coeliac coeliacs celiac celiacs",
  "allergy allergies allergic allergen allergens intolerance intolerant traces",
  "dog dogs pet pets puppy puppies",
  "seat seats seating sit sitting chair chairs table tables",
  "refund refunds refunded reimburse reimbursed reimbursement",
  "deliver delivers delivered delivery deliveries shipping ship ships shipped postage courier",
  "class classes course courses lesson lessons workshop workshops learn teach",
  "coffee coffees espresso espressos latte lattes cappuccino cappuccinos americano americanos",
  "bread breads loaf loaves",
  "people persons guest guests participant participants places spots",
  "arrive arrived arrives receive received",
  "information data personal details records privacy",
  "christmas xmas",
  "cancel cancels cancelled canceled cancellation",
  "reserve reserved reservation reservations",
  "founded founder founders established establish began begin",
  "pay pays paid paying payment payments",
];

/** Verbs (and a few others) that nearly any question has: they count for little in choosing an answer. */
const WEAK_WORDS =
  "bring buy sell get got eat drink need want like take make come go happen allow let help offer serve keep put " +
  "see try join work run hold held use say look bake today tomorrow tonight day " +
  "people persons thing things stuff kind kinds type types option options choice choices available availability";

/** Phrases read as one word before a question is split into words. */
const PHRASES: readonly [RegExp, string][] = [
  [/\bmoney back\b/g, " refund "],
  // "Where does it come from" asks for an origin, "where does my refund go" a destination: not a place to visit.
  [/\bwhere\b(.*)\b(?:come|comes|coming|came|sourced|get|gets|buy|buys)\s+(?:it\s+|them\s+)?from\b/g, " origin $1 "],
  [/\bwhere\b(.*)\b(?:go|goes|going|sent|paid)\b/g, " $1 "],
  [/\b(?:coeliac|celiac) disease\b/g, " gluten "],
  [/\b(?:take|takes|taking|took) place\b/g, " "],
];

const WEEKDAY = /\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b/i;
const CLOCK = /\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s?(?:am|pm)\b/i;
const DURATION =
  /\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|half an?)[\s-]+(?:working[\s-]+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\b/i;
const either = (...patterns: RegExp[]) => new RegExp(patterns.map((p) => p.source).join("|"), "i");

/**
 * The kinds of answer a question can ask for, by the words that ask it: a passage answers "how much" only with an
 * amount in it, "when" with a time or a day, "where" with an address. Their words are taken out of the question
 * (the cue stands for them), except where a content word is also meant ("opening hours": "opening" stays).
 */
const CUES: readonly { key: string; asks: RegExp; stems: string[]; pattern: RegExp }[] = [
  { key: "origin", asks: /\borigin\b/g, stems: [], pattern: /\bfrom\b|\blocal(?:ly)?\b|\bsourced\b/i },
  {
    key: "phone",
    asks: /\b(?:call you|ring you|(?:tele)?phone(?: number)?|number to call)\b/g,
    stems: ["phone", "telephone", "call"].map(stem),
    pattern: /\+?\d[\d ()-]{6,}\d|\b(?:tele)?phone\b/i,
  },
  {
    key: "email",
    asks: /\b(?:e ?mail(?: address)?)\b/g,
    stems: ["email", "mail"],
    pattern: /[^\s@]+@[^\s@]+\.[a-z]{2,}/i,
  },
  {
    key: "contact",
    asks: /\b(?:get in touch|contact(?: details)?|reach you)\b/g,
    stems: ["contact", "phone", "email", "mail"].map(stem),
    pattern: /\+?\d[\d ()-]{6,}\d|[^\s@]+@[^\s@]+\.[a-z]{2,}|\b(?:phone|e-?mail|contact)\b/i,
  },
  {
    key: "place",
    asks: /\b(?:where|address|located|location|directions|find you)\b/g,
    stems: ["address", "location", "located", "directions"].map(stem),
    // An e-mail or IP address is not a place.
    pattern: /(?<!e-?mail |\bip )\baddress\b|\b(?:where|street|road|lane|avenue|square|quay|quayside|located)\b/i,
  },
  {
    key: "price",
    asks: /\b(?:how much|price[sd]?|cost(?:s|ing)?|charge[sd]?|fees?)\b/g,
    stems: ["price", "prices", "cost", "costs"].map(stem),
    // "Free" is a price ("30 minutes, Free"); "free of traces" is not.
    pattern: /[£€$]\s?\d|\b\d+(?:[.,]\d{2})?\s?(?:eur|gbp|usd|euros?|pounds?|dollars?)\b|\bfree\b(?!\s+of\b)/i,
  },
  {
    key: "ingredients",
    asks: /\b(?:ingredients?|made (?:with|from|of)|what goes into|whats in|what is in|contains?)\b/g,
    stems: ["ingredient", "contain"],
    pattern:
      /\b(?:ingredients?|contains?|made (?:with|from|of)|flour|wheat|rye|spelt|water|salt|butter|sugar|eggs?|milk|cream|nuts?|almonds?|yeast|chocolate|fruit|gluten)\b/i,
  },
  {
    key: "weight",
    asks: /\b(?:how heavy|how big|weight|weigh|weighs|size)\b/g,
    stems: ["weight", "size"].map(stem),
    pattern: /\b\d+(?:[.,]\d+)?\s?(?:g|kg|grams?|kilos?|kilograms?|lbs?|oz|ounces?)\b|\bslices?\b|\bserves\b/i,
  },
  { key: "duration", asks: /\bhow long\b/g, stems: ["minutes", "hours", "days", "weeks"].map(stem), pattern: DURATION },
  {
    key: "time",
    asks: /\b(?:when|what time|how late|how early|hours|times|mornings?|afternoons?|evenings?|lunchtime)\b/g,
    stems: ["hours", "time", "times", "opening"].map(stem),
    pattern: either(CLOCK, WEEKDAY, DURATION),
  },
  {
    key: "count",
    asks: /\bhow many\b/g,
    stems: [],
    pattern: /\b\d+\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)\b/i,
  },
];

const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const DAY_NAMES = [
  "mon(?:day)?",
  "tue(?:s|sday)?",
  "wed(?:nesday)?",
  "thu(?:rs?|rsday)?",
  "fri(?:day)?",
  "sat(?:urday)?",
  "sun(?:day)?",
];

/**
 * What says a weekday besides its name: a range of days that holds it ("Tuesday – Thursday" holds Wednesday), or
 * every day ("daily"; "weekdays" for Monday to Friday).
 */
function dayPattern(day: number): RegExp {
  const from = DAY_NAMES.slice(0, day + 1).join("|");
  const to = DAY_NAMES.slice(day).join("|");
  const every = day < 5 ? "daily|every day|weekdays" : "daily|every day|weekends?";
  return new RegExp(`\\b(?:${from})\\s*(?:–|—|-|to|until|through|till)\\s*(?:${to})\\b|\\b(?:${every})\\b`, "i");
}

const synonymsOf = new Map<string, string[]>();
for (const line of SYNONYMS) {
  const stems = [...new Set(line.split(" ").map(stem))];
  for (const s of stems) synonymsOf.set(s, stems);
}
const WEAK = new Set(WEAK_WORDS.split(" ").map(stem));

/**
 * What `question` asks for, as groups of words (and cues) any of which answers each part: "Can I bring my dog?"
 * is {bring: weak} and {dog, pet, puppy}. Empty when it asks for nothing a text could answer ("hi").
 */
export function queryGroups(question: string): QueryGroup[] {
  let text = words(question).join(" ");
  for (const [phrase, replacement] of PHRASES) text = text.replace(phrase, replacement);
  const groups: QueryGroup[] = [];
  for (const cue of CUES) {
    const asked = text.replace(cue.asks, " ");
    if (asked === text) continue;
    groups.push({ key: cue.key, stems: cue.stems, pattern: cue.pattern, kind: "cue" });
    // "opening hours": the time cue takes "hours", "opening" stays a word to match.
    text = asked;
  }
  for (const word of text.split(/\s+/)) {
    if (!word || STOP_WORDS.has(word)) continue;
    const s = stem(word);
    const stems = synonymsOf.get(s) ?? [s];
    const key = stems[0]!;
    if (groups.some((g) => g.key === key)) continue;
    const day = DAYS.indexOf(s.replace(/s$/, ""));
    groups.push({
      key,
      stems: day >= 0 ? [stem(DAYS[day]!)] : stems,
      ...(day >= 0 ? { pattern: dayPattern(day) } : {}),
      kind: WEAK.has(s) ? "weak" : "content",
    });
  }
  return groups;
}

/** Whether a text with these terms says what `group` asks for. A word may be the start of a longer one. */
function says(group: QueryGroup, own: ReadonlySet<string>, text?: string): boolean {
  if (group.pattern && text !== undefined && group.pattern.test(text)) return true;
  if (group.kind === "cue") return false;
  return group.stems.some(
    (s) => own.has(s) || (s.length >= 4 && [...own].some((o) => o.length > s.length && o.startsWith(s))),
  );
}

/**
 * How much each group counts, given how rare its words are (`idf`; alike without an index): a weak word less than
 * half, a cue half an average word. A cue is wanted anyway (a passage without it does not answer), so it must not
 * also make up for a missing word: "how much is delivery" is not answered by a price of something else.
 */
export function defaultWeights(groups: readonly QueryGroup[], idf: (g: QueryGroup) => number = () => 1): number[] {
  const content = groups.filter((g) => g.kind === "content").map(idf);
  const average = content.length ? content.reduce((a, b) => a + b, 0) / content.length : 2;
  return groups.map((g) => (g.kind === "cue" ? average / 2 : g.kind === "weak" ? 0.4 * idf(g) : idf(g)));
}

// ---- Passages that answer ------------------------------------------------------------------------------------------

export interface Passage {
  text: string;
  /** How many of the question's groups it answers, itself or by what it is read under (its heading, its title). */
  matched: number;
}

export interface Reading {
  /** At most `limit` passages, in the document's order. */
  passages: Passage[];
  /**
   * The weighted share of the question the passages answer (0–1), with what they are read under: 0 when the
   * question asks for a kind of answer (an amount, a time…) that none of them has.
   */
  strength: number;
  /** The same share for the first passage alone: how well the document answers in one place. */
  lead: number;
}

interface Unit {
  text: string;
  index: number;
  own: Set<string>;
  /** The terms it is read under: the document's title, its section's heading, the question it answers. */
  context: Set<string>;
  /** Of those, its heading's and question's: a line under "How refunds are paid" answers about refunds. */
  headed: Set<string>;
  /** A section: the units under one heading, quoted together, and the heading's terms. */
  members?: Unit[];
  heading?: Set<string>;
  /**
   * The sentences of the FAQ answer it is one of, quoted whole: an answer's caveat ("…so we cannot promise it is
   * free of traces") is part of the answer, whichever of its sentences the question matched.
   */
  answer?: Unit[];
}

/** An FAQ answer of at most this many sentences is quoted whole. */
const WHOLE_ANSWER = 4;

/** A short line that introduces the lines under it: "Pastries:", "Something wrong with your order?", "Coffee.". */
function introduces(line: string, next: string | undefined): boolean {
  if (next === undefined || sentencesOfLine(line).length !== 1) return false;
  const n = words(line).length;
  return (/[:?]\.?$/.test(line) && n <= 12) || (/\.$/.test(line) && n <= 3);
}

/**
 * The readings of documents already read (`unitsOf` is pure): a question reads a dozen documents, and the same
 * documents answer question after question, so splitting and stemming them again each time was most of an answer's
 * cost (bench/). Bounded; the oldest go first.
 */
const readings = new Map<string, Unit[]>();
const MAX_READINGS = 4000;

/** A document as units a passage can be: its sentences and list lines, and each heading with the lines under it. */
function unitsOf(text: string, title: string): Unit[] {
  const key = `${title}\u0000${text}`;
  const known = readings.get(key);
  if (known) return known;
  const units = readUnits(text, title);
  if (readings.size >= MAX_READINGS) readings.delete(readings.keys().next().value!);
  readings.set(key, units);
  return units;
}

function readUnits(text: string, title: string): Unit[] {
  const titled = new Set(terms(title));
  const lines = text
    .split(/\n+/)
    .map((l) => l.trim())
    .filter(Boolean);
  const units: Unit[] = [];
  let section: { heading: string; terms: string[]; members: Unit[] } | null = null;
  const close = () => {
    // A heading with its lines is one passage only over a list (items, a table's rows): under a heading of
    // sentences, each sentence answers for itself and is read with the heading.
    const listed = section?.members.filter((m) => !/[.!?]$/.test(m.text)).length ?? 0;
    if (section && section.members.length > 1 && listed * 2 >= section.members.length) {
      const body = section.members
        .map((m, i) => (i < section!.members.length - 1 && !/[.!?:;]$/.test(m.text) ? `${m.text};` : m.text))
        .join(" ");
      const heading = section.heading.replace(/\.$/, ":");
      units.push({
        text: `${heading} ${body}`,
        index: section.members[0]!.index - 0.5,
        own: new Set([...section.terms, ...section.members.flatMap((m) => [...m.own])]),
        context: titled,
        headed: new Set(),
        heading: new Set(section.terms),
        members: section.members,
      });
    }
    section = null;
  };
  lines.forEach((line, i) => {
    if (introduces(line, lines[i + 1])) {
      close();
      section = { heading: line.replace(/\?\.$/, "?"), terms: terms(line), members: [] };
      return;
    }
    // In an FAQ's line the question comes first: the sentences after it answer it, and are read with it.
    let asked: string[] = [];
    const answering: Unit[] = [];
    for (const sentence of sentencesOfLine(line)) {
      if (isQuestion(sentence)) {
        asked = [...asked, ...terms(sentence)];
        continue;
      }
      const unit: Unit = {
        text: sentence,
        index: units.length,
        own: new Set(terms(sentence)),
        context: new Set([...titled, ...(section?.terms ?? []), ...asked]),
        headed: new Set([...(section?.terms ?? []), ...asked]),
      };
      units.push(unit);
      if (asked.length) answering.push(unit);
      if (section && section.members.length < 8) section.members.push(unit);
    }
    if (answering.length > 1 && answering.length <= WHOLE_ANSWER) for (const unit of answering) unit.answer = answering;
  });
  close();
  return units;
}

/**
 * The passages of `text` that answer `groups` best, and how fully. The first is the unit answering the most (by
 * weight, with what it is read under), then the one saying most itself, then the one whose heading is about it too,
 * then the shortest — so a list's heading with its lines wins only when the answer is the list. A second adds what the first lacks, or is the next best that says
 * something asked itself; failing both, the document's opening sentence when the question wants no particular kind
 * of answer ("what is the consultation?"). A question in the text is never quoted: the sentences after it answer.
 */
export function answerFrom(
  text: string,
  groups: readonly QueryGroup[],
  options: { title?: string; weights?: readonly number[]; limit?: number } = {},
): Reading {
  const limit = options.limit ?? 2;
  if (groups.length === 0 || limit < 1) return { passages: [], strength: 0, lead: 0 };
  const weights = options.weights ?? defaultWeights(groups);
  // Which document answers is decided by what the question is about, not by its verbs ("can I come in on a Monday"
  // is not answered by "coming off the early boats"): weak words only choose among a document's passages.
  const counts = groups.map((g) => g.kind !== "weak" || groups.every((h) => h.kind === "weak"));
  const share = (flags: readonly boolean[]) =>
    flags.reduce((a, f, i) => a + (f && counts[i] ? weights[i]! : 0), 0) /
    groups.reduce((a, _, i) => a + (counts[i] ? weights[i]! : 0), 0);
  const units = unitsOf(text, options.title ?? "");
  const read = units.map((unit) => {
    const direct = groups.map((g) => says(g, unit.own, unit.text));
    const any = groups.map((g, i) => direct[i]! || (g.kind !== "cue" && says(g, unit.context)));
    const headed = groups.map((g) => g.kind !== "cue" && says(g, unit.headed));
    const sum = (flags: boolean[]) => flags.reduce((a, f, i) => a + (f ? weights[i]! : 0), 0);
    return { unit, direct, any, own: sum(direct), all: sum(any), headed: sum(headed) };
  });
  // A list answers as a whole only when no item is what was asked: "what pastries…" is the list, "how much is the
  // cardamom bun" its line.
  const specific = (r: (typeof read)[number]) =>
    r.unit.members?.some((m) =>
      groups.some((g) => g.kind === "content" && says(g, m.own, m.text) && !says(g, r.unit.heading!)),
    );
  const saying = read.filter((r) => r.own > 0 && !specific(r));
  // A document about what was asked (its title says most of it) is best introduced by its opening sentence.
  const titled = new Set(terms(options.title ?? ""));
  const entitled = groups.map((g) => g.kind !== "cue" && says(g, titled));
  const introduces = share(entitled) >= 0.5 && !groups.some((g) => g.kind === "cue");
  if (saying.length === 0) {
    // "Tell me about your story": nothing in it says "story", its title does.
    if (!introduces || !read[0]) return { passages: [], strength: 0, lead: 0 };
    const opening = read.slice(0, Math.min(limit, 2)).filter((r) => !r.unit.members);
    return {
      passages: opening.map((r) => ({ text: r.unit.text, matched: r.any.filter(Boolean).length })),
      strength: share(entitled),
      lead: share(entitled),
    };
  }
  const first = [...saying].sort(
    (a, b) =>
      b.all - a.all ||
      b.own - a.own ||
      b.headed - a.headed ||
      a.unit.text.length - b.unit.text.length ||
      a.unit.index - b.unit.index,
  )[0]!;
  const chosen = [first];
  const overlaps = (a: Unit, b: Unit) => a === b || a.members?.includes(b) || b.members?.includes(a);
  while (chosen.length < limit) {
    const covered = groups.map((_, i) => chosen.some((c) => c.any[i]));
    const gain = (r: (typeof read)[number]) =>
      r.direct.reduce((a, f, i) => a + (f && !covered[i] ? weights[i]! : 0), 0);
    // A second passage must add something asked, or say one of the question's words itself: a cue alone (any
    // price on the menu) is not an answer to this question.
    const worded = (r: (typeof read)[number]) => groups.some((g, i) => g.kind === "content" && r.direct[i]);
    const next = saying
      .filter((r) => !chosen.some((c) => overlaps(c.unit, r.unit)) && (gain(r) > 0 || worded(r)))
      .sort((a, b) => gain(b) - gain(a) || b.own - a.own || b.headed - a.headed || a.unit.index - b.unit.index)[0];
    if (next) {
      chosen.push(next);
      continue;
    }
    const opening = read[0];
    if (opening && introduces && !chosen.some((c) => overlaps(c.unit, opening.unit))) chosen.push(opening);
    break;
  }
  const answered = groups.map((_, i) => chosen.some((c) => c.any[i]));
  // The kind of answer asked for must come with what it is asked about: a price beside the croissant, not the
  // price of a loaf in one passage and the word "croissant" in another.
  const subject = (c: (typeof chosen)[number]) =>
    !groups.some((g) => g.kind === "content") || groups.some((g, i) => g.kind === "content" && c.any[i]);
  const cued = groups.every((g, i) => g.kind !== "cue" || chosen.some((c) => c.direct[i] && subject(c)));
  const strength = cued ? share(answered) : 0;
  const lead = cued ? share(first.any) : 0;
  const quoted = new Set<Unit[]>();
  return {
    passages: chosen
      .sort((a, b) => a.unit.index - b.unit.index)
      .flatMap((c) => {
        const whole = c.unit.answer;
        if (!whole) return [{ text: c.unit.text, matched: c.any.filter(Boolean).length }];
        if (quoted.has(whole)) return [];
        quoted.add(whole);
        return [{ text: whole.map((u) => u.text).join(" "), matched: c.any.filter(Boolean).length }];
      }),
    strength,
    lead,
  };
}

/** The passages of `text` that best answer `query` (see `answerFrom`), in the order they appear. */
export function bestPassages(text: string, query: string, limit = 2, title = ""): Passage[] {
  return answerFrom(text, queryGroups(query), { title, limit }).passages;
}

/**
 * The asks of one question ("… and …", "…; …", "…? …", "then …"): each may ask for something else. Only where a
 * new ask plainly starts — "and" followed by a question word — so "bread and butter" stays one.
 */
export function splitAsks(question: string): string[] {
  return question
    .split(
      /\s*(?:;|\?|\.(?=\s|$)|,?\s+and also\s+|,?\s+and then\s+|,?\s+then\s+|,?\s+and\s+(?=(?:what|whats|what's|who|whos|who's|how|show|list|find|tell|give|which|any|is|are|do|does|did|can|could|when|where|has|have)\b)|,?\s+also\s+)\s*/i,
    )
    .map((c) => c.trim())
    .filter((c) => c.length > 2);
}

/**
 * What a question is about, without what it asks of it: its content words, cues and weak words left out ("what's
 * the price of the sourdough class" → "sourdough class"). A later ask that only says "it" is read with these.
 */
export function subjectOf(question: string): string {
  const about = new Set(
    queryGroups(question)
      .filter((g) => g.kind === "content")
      .flatMap((g) => g.stems),
  );
  return words(question)
    .filter((w) => !STOP_WORDS.has(w) && about.has(stem(w)))
    .join(" ");
}

/** At most `max` characters, cut at a word and marked with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, "")}…`;
}
