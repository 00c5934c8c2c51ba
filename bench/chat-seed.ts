/**
 * The chat benchmark's workspace (issue 20; `BENCH_ONLY=chat`, bench/README.md): a garden centre with 500
 * published pages of a few hundred words each and 500 active products, written through the app's own module
 * functions (`createWorkspace`, `pagesOf(...).create` and `.publish`, `productsOf(...).save`) into the database of
 * the bench's running server, as the console would have saved them one by one.
 *
 * Run by bench/run.mjs with tsx: `DATABASE_URL=file:… BENCH_OWNER=demo@atrium.test tsx bench/chat-seed.ts`. The text
 * is made from templates by a seeded generator, so every run writes the same site: 50 plants × 10 kinds of guide
 * (distinct titles), each page's facts (depths, months, pests, varieties) drawn per page. Prints one JSON line:
 * the workspace, the counts, the average page length and one page's id (the bench republishes it to measure the
 * index's rebuild).
 *
 * A process of its own writes no purge to the server's memory, which is why it runs before the workspace was ever
 * asked about: nothing of it is cached yet.
 */
import { openDatabase } from "~db/client";
import { productsOf } from "~/modules/commerce/catalogue.server";
import { BlockInput } from "~/modules/sites/blocks";
import { pagesOf } from "~/modules/sites/pages.server";
import { createWorkspace } from "~/modules/tenancy/workspaces.server";

export const CHAT_WORKSPACE = { name: "Fernhill Garden Centre", slug: "bench-fernhill" };

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hash = (text: string) => [...text].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** [plural, singular as a modifier]: "tomatoes", "tomato seeds". */
const PLANTS: [string, string][] = [
  ["tomatoes", "tomato"],
  ["roses", "rose"],
  ["lavender", "lavender"],
  ["apple trees", "apple tree"],
  ["strawberries", "strawberry"],
  ["potatoes", "potato"],
  ["runner beans", "runner bean"],
  ["courgettes", "courgette"],
  ["garlic", "garlic"],
  ["onions", "onion"],
  ["carrots", "carrot"],
  ["lettuces", "lettuce"],
  ["sweet peas", "sweet pea"],
  ["dahlias", "dahlia"],
  ["tulips", "tulip"],
  ["hydrangeas", "hydrangea"],
  ["clematis", "clematis"],
  ["wisteria", "wisteria"],
  ["rhubarb", "rhubarb"],
  ["raspberries", "raspberry"],
  ["blueberries", "blueberry"],
  ["gooseberries", "gooseberry"],
  ["pear trees", "pear tree"],
  ["plum trees", "plum tree"],
  ["fig trees", "fig tree"],
  ["olive trees", "olive tree"],
  ["camellias", "camellia"],
  ["rhododendrons", "rhododendron"],
  ["hostas", "hosta"],
  ["ferns", "fern"],
  ["bamboo", "bamboo"],
  ["box hedges", "box hedge"],
  ["yew hedges", "yew hedge"],
  ["lawns", "lawn"],
  ["wildflower meadows", "wildflower meadow"],
  ["basil", "basil"],
  ["rosemary", "rosemary"],
  ["mint", "mint"],
  ["thyme", "thyme"],
  ["chillies", "chilli"],
  ["sweet peppers", "sweet pepper"],
  ["cucumbers", "cucumber"],
  ["pumpkins", "pumpkin"],
  ["leeks", "leek"],
  ["kale", "kale"],
  ["sunflowers", "sunflower"],
  ["peonies", "peony"],
  ["fuchsias", "fuchsia"],
  ["geraniums", "geranium"],
  ["orchids", "orchid"],
];

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October"];
const PESTS = ["aphids", "slugs", "vine weevils", "red spider mites", "whitefly", "caterpillars", "thrips", "scale"];
const DISEASES: [string, string][] = [
  ["Powdery mildew", "a white, dusty coating on the upper leaves"],
  ["Grey mould", "fluffy grey patches on soft stems and flowers"],
  ["Rust", "orange pustules on the undersides of the leaves"],
  ["Black spot", "dark, round spots with yellow edges"],
  ["Leaf spot", "small brown spots that join into blotches"],
];
const MULCHES = ["well-rotted manure", "leaf mould", "composted bark", "garden compost", "spent mushroom compost"];
const FEEDS = ["a liquid tomato feed", "a seaweed extract", "a balanced liquid feed", "diluted comfrey tea"];
const FERTILISERS = ["fish, blood and bone", "growmore", "pelleted chicken manure", "sulphate of potash"];
const VARIETY_WORDS = [
  ["Fernhill", "Summer", "Old", "Little", "Golden", "Crimson", "Early", "Lady", "Royal", "Northern"],
  ["Gold", "Crest", "Rectory", "Gem", "Glory", "Star", "Dawn", "Jane", "Velvet", "Light"],
];

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface Facts {
  plural: string;
  single: string;
  pick<T>(list: readonly T[]): T;
  between(low: number, high: number): number;
}

/** The ten kinds of guide: a title, a description, and the sentences only that kind of page says. */
const KINDS: { title: (f: Facts) => string; about: (f: Facts) => string; says: (f: Facts) => string[] }[] = [
  {
    title: (f) => `Growing ${f.plural} from seed`,
    about: (f) => `How to sow ${f.plural} indoors and raise strong seedlings.`,
    says: (f) => [
      `Sow ${f.single} seeds ${f.between(3, 12)} mm deep in a tray of fine seed compost from ${f.pick(MONTHS.slice(0, 5))}.`,
      `The seeds germinate best at ${f.between(16, 24)} °C, usually within ${f.between(5, 21)} days.`,
      "Cover the tray with a clear lid and keep it on a bright windowsill out of the midday sun.",
      "Once the seedlings have two true leaves, prick them out into 9 cm pots of multipurpose compost.",
      `Harden the young ${f.single} plants off for ${f.between(7, 14)} days before they go outside for good.`,
      `Old ${f.single} seed loses its vigour, so buy fresh packets every ${f.between(2, 4)} years.`,
    ],
  },
  {
    title: (f) => `Pruning ${f.plural}`,
    about: (f) => `When and how to prune ${f.plural} for healthy growth.`,
    says: (f) => [
      `Prune ${f.plural} in ${f.pick(MONTHS)}, and again lightly in ${f.pick(MONTHS)} if they have grown out of shape.`,
      "Cut each stem back to a healthy outward-facing bud, about 5 mm above it, with a sloping cut.",
      `Always use clean, sharp secateurs: a ragged cut on ${f.single} stems lets disease in.`,
      "Remove dead, damaged and crossing branches first, then thin the centre to let the air through.",
      `Never take off more than a ${f.pick(["third", "quarter", "fifth"])} of the growth in a single year.`,
      `After pruning, mulch around the base with ${f.pick(MULCHES)}.`,
    ],
  },
  {
    title: (f) => `Pests and diseases of ${f.plural}`,
    about: (f) => `What attacks ${f.plural}, how to spot it early and how to deal with it.`,
    says: (f) => {
      const [first, second] = [f.pick(PESTS), f.pick(PESTS)];
      const [disease, symptom] = f.pick(DISEASES);
      return [
        `The pests that most often attack ${f.plural} are ${first} and ${second === first ? "earwigs" : second}.`,
        `Check the undersides of ${f.single} leaves every week from ${f.pick(MONTHS.slice(2, 7))} for the first signs of ${first}.`,
        `${disease} shows as ${symptom}; cut off the affected leaves and bin them rather than composting them.`,
        "Encourage ladybirds, lacewings and birds, which keep most pests in check without any spray.",
        `A fine insect mesh over young ${f.single} plants keeps most flying pests away.`,
        `Grow ${f.plural} in a different bed every ${f.between(2, 4)} years so that diseases cannot build up in the soil.`,
      ];
    },
  },
  {
    title: (f) => `Watering ${f.plural}`,
    about: (f) => `How much and how often to water ${f.plural} through the year.`,
    says: (f) => [
      `Water ${f.plural} deeply every ${f.between(3, 10)} days in dry spells rather than a little every day.`,
      `An established ${f.single} plant needs about ${f.between(5, 30)} litres of water a week in high summer.`,
      "Water at the base early in the morning and keep the leaves dry, which helps to prevent mildew.",
      `Use rainwater from a water butt where you can: ${f.plural} prefer it to hard tap water.`,
      `A mulch of ${f.pick(MULCHES)} after a good soak keeps the moisture in for much longer.`,
      `Cut back on watering from ${f.pick(MONTHS.slice(7))}, when growth slows down.`,
    ],
  },
  {
    title: (f) => `Feeding ${f.plural}`,
    about: (f) => `Which fertiliser to give ${f.plural}, and when.`,
    says: (f) => [
      `Feed ${f.plural} with ${f.pick(FEEDS)} every ${f.between(7, 21)} days from ${f.pick(MONTHS.slice(3, 6))} until late summer.`,
      "A high-potash feed encourages flowers and fruit, while a high-nitrogen feed gives leaves at their expense.",
      `Work ${f.between(50, 150)} g of ${f.pick(FERTILISERS)} per square metre into the soil before planting.`,
      `Yellowing between the veins of ${f.single} leaves usually means a lack of magnesium, which Epsom salts put right.`,
      `Stop feeding by the end of ${f.pick(MONTHS.slice(7))} so that no soft growth goes into the winter.`,
    ],
  },
  {
    title: (f) => `${cap(f.plural)} in containers`,
    about: (f) => `Growing ${f.plural} in pots on a patio or balcony.`,
    says: (f) => [
      `Grow ${f.plural} in a pot at least ${f.between(25, 60)} cm across, with plenty of drainage holes in the base.`,
      `Use a peat-free, loam-based compost such as John Innes No. ${f.between(2, 3)} for ${f.plural} in pots.`,
      "Stand the pots on feet so that water drains away freely in winter.",
      `${cap(f.plural)} in containers dry out quickly, so check them every day in hot weather.`,
      `Repot every ${f.between(2, 4)} years in spring, or replace the top few centimetres of compost in the years between.`,
    ],
  },
  {
    title: (f) => `Winter care for ${f.plural}`,
    about: (f) => `Keeping ${f.plural} safe through frost, wind and wet.`,
    says: (f) => [
      `Once established, ${f.plural} are hardy down to about minus ${f.between(2, 15)} °C.`,
      `Protect young ${f.single} plants with a double layer of horticultural fleece whenever frost is forecast.`,
      "Wrap pots in hessian or bubble wrap so that the roots do not freeze solid.",
      `Move ${f.plural} in pots against a sheltered, south-facing wall from ${f.pick(MONTHS.slice(8))}.`,
      `Clear fallen leaves from around ${f.plural} in late autumn, as slugs and fungal spores spend the winter in them.`,
    ],
  },
  {
    title: (f) => `Choosing ${f.single} varieties`,
    about: (f) => `Our pick of the ${f.single} varieties that do well here.`,
    says: (f) => {
      const name = () => `'${f.pick(VARIETY_WORDS[0]!)} ${f.pick(VARIETY_WORDS[1]!)}'`;
      return [
        `For a small garden, ${name()} is a reliable and compact ${f.single} variety.`,
        `${name()} holds the RHS Award of Garden Merit for its vigour and its resistance to disease.`,
        `Early varieties are ready ${f.between(2, 6)} weeks before the later ones, so grow one of each to spread the season.`,
        `On heavy clay, choose a vigorous ${f.single} variety and add grit to the planting hole.`,
        `Our plant centre stocks ${f.between(6, 40)} ${f.single} varieties at a time; ask at the plant desk which are in flower.`,
      ];
    },
  },
  {
    title: (f) => `Propagating ${f.plural}`,
    about: (f) => `Making new ${f.single} plants from cuttings, division and layering.`,
    says: (f) => [
      `Take softwood cuttings of ${f.plural} in ${f.pick(MONTHS.slice(3, 8))}, about ${f.between(5, 15)} cm long, just below a leaf joint.`,
      "Dip the cut end in hormone rooting powder and push it into a pot of gritty compost.",
      `Cover the pot with a clear plastic bag and keep it out of direct sun; roots form in about ${f.between(3, 8)} weeks.`,
      `Established ${f.plural} can also be divided in early spring: lift the clump and split it with two forks back to back.`,
      "Layering works well too: peg a low stem down to the soil and cut it from the parent plant a year later.",
    ],
  },
  {
    title: (f) => `Planting ${f.plural}`,
    about: (f) => `Where, when and how to plant ${f.plural}.`,
    says: (f) => [
      `Plant ${f.plural} ${f.between(10, 90)} cm apart, in rows ${f.between(30, 120)} cm apart.`,
      `The best time to plant ${f.plural} is ${f.pick(MONTHS)}, when the soil is moist and warm enough to work.`,
      "Dig a hole twice the width of the root ball and loosen the soil at the bottom with a fork.",
      `${cap(f.plural)} like a sunny, sheltered spot and a well-drained soil with a pH of about ${f.between(55, 75) / 10}.`,
      "Firm the soil gently around the roots and water the plant in well.",
    ],
  },
];

/** Sentences any page may say: the garden centre's voice, in no particular order. */
const GENERAL = [
  "Every garden is different, so treat these timings as a guide and watch how your own plants respond.",
  "Our team at the Fernhill plant desk is happy to look at a leaf or a photo and tell you what it needs.",
  "We run free demonstrations in the walled garden on the first Saturday of every month.",
  "Good soil is the foundation of everything: dig in organic matter every year and the plants will thank you.",
  "A notebook of what you sowed, planted and picked each year is the best gardening book you will ever own.",
  "Light frosts can arrive as late as the middle of May in the north, so keep fleece to hand.",
  "Peat-free composts hold water differently from the old peat ones: check them with a finger before watering.",
  "A few minutes in the garden every day achieves far more than a long weekend of catching up.",
  "Tools last for decades if you clean the soil off them after use and oil the blades before winter.",
  "The weather over the last few summers has been drier, so plan for watering from the start.",
  "Pollinators need flowers from early spring to late autumn, and a garden that feeds them feeds you.",
  "If in doubt, wait a week: most plants forgive a late job far more readily than an early one.",
  "Wildlife ponds, even small ones, bring frogs and birds that eat a great many pests.",
  "Raised beds warm up earlier in spring and drain better on heavy soil.",
  "Sheltered corners against a wall can be two or three degrees warmer than the open garden.",
  "Our garden café serves lunch every day, and the terrace looks over the display beds.",
  "Loyalty card holders get ten per cent off plants on Wednesdays.",
  "Bring your empty plastic pots back to the centre: we reuse or recycle every one.",
  "Children love sowing seeds, and the quick crops give them something to pick within weeks.",
  "A cold frame or a small greenhouse extends the season by a month at each end.",
  "Compost heaps work fastest with a mix of green and brown material, turned every few weeks.",
  "Water butts fill surprisingly quickly: one shed roof collects thousands of litres a year.",
  "Keep a close eye on plants in their first year, before their roots have spread.",
  "Labels save a great deal of guesswork the following spring.",
  "Buying plants in small pots and growing them on is cheaper than buying large specimens.",
  "Most garden problems come from the wrong plant in the wrong place, not from pests.",
  "Netting keeps pigeons and blackbirds off fruit, but check it daily for trapped birds.",
  "Autumn is the best time to plan next year's beds, while this year's successes are fresh in the mind.",
  "We deliver bulky items such as compost and paving within fifteen miles of the centre.",
  "The walled garden's beds are planted by our own staff and change with the seasons.",
  "Crop rotation and clean tools prevent most diseases before they start.",
  "Hoe weeds on a dry, breezy morning and they will wither where they lie.",
  "Mulching in spring saves hours of weeding and watering later in the year.",
  "Plants grown hard, with less water and feed, are tougher and live longer.",
  "Our gardening club meets on the second Tuesday of the month in the café.",
  "Gift vouchers can be spent on plants, tools, workshops and lunch.",
];

const PARAGRAPH = 4;

function page(plant: [string, string], kind: (typeof KINDS)[number]) {
  const [plural, single] = plant;
  const random = generator(hash(`${plural}|${kind.title({ plural, single } as Facts)}`));
  const facts: Facts = {
    plural,
    single,
    pick: (list) => list[Math.floor(random() * list.length)]!,
    between: (low, high) => low + Math.floor(random() * (high - low + 1)),
  };
  const title = kind.title(facts);
  const own = kind.says(facts);
  // Fisher–Yates with the page's own generator: each page says a different selection, in a different order.
  const general = [...GENERAL];
  for (let i = general.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [general[i], general[j]] = [general[j]!, general[i]!];
  }
  general.length = 14;
  const sentences = [...own.slice(0, 2), ...general.slice(0, 3), ...own.slice(2), ...general.slice(3)];
  const paragraphs: string[] = [];
  for (let i = 0; i < sentences.length; i += PARAGRAPH) paragraphs.push(sentences.slice(i, i + PARAGRAPH).join(" "));
  const blocks = [
    { type: "richText", markdown: `## ${title}\n\n${paragraphs.join("\n\n")}` },
    {
      type: "faq",
      heading: "Questions we are often asked",
      items: [
        {
          question: `Do you sell ${single} plants at the centre?`,
          answer: `Yes: ${plural} are in stock at the plant centre for most of the year, and our staff can order others.`,
        },
        { question: `Is there a workshop on ${plural}?`, answer: general.at(-1)! },
      ],
    },
  ].map((block) => BlockInput.parse(block));
  const words = [title, ...sentences, ...blocks.flatMap((b) => (b.type === "faq" ? b.items : []))]
    .map((s) => (typeof s === "string" ? s : `${s.question} ${s.answer}`))
    .join(" ")
    .split(/\s+/).length;
  return { title, description: kind.about(facts), blocks, words };
}

const RANGES = [
  "Fernhill",
  "Hartley",
  "Meadowsweet",
  "Oakmoor",
  "Kingfisher",
  "Thornbury",
  "Ashdown",
  "Willowbrook",
  "Greenway",
  "Elmstead",
  "Foxglove",
  "Harrow & Hedge",
  "Rowan",
  "Stonebridge",
  "Wrenfield",
  "Larkspur",
  "Hollybank",
  "Millbrook",
  "Sorrel",
  "Bramble Lane",
];
/** [name, type, what it does, price range in pence] */
const ITEMS: [string, string, string, number, number][] = [
  ["hand trowel", "Hand tools", "a narrow, strong blade for planting bulbs and bedding", 699, 2499],
  ["hand fork", "Hand tools", "three tines for loosening soil and lifting weeds between plants", 699, 2299],
  ["border spade", "Digging", "a smaller blade for digging among established plants", 2499, 6999],
  ["digging fork", "Digging", "four square tines for breaking up heavy ground", 2499, 7499],
  ["Dutch hoe", "Weeding", "a flat blade pushed just below the surface to cut weeds off", 1499, 3999],
  ["garden rake", "Weeding", "twelve steel teeth for levelling soil and gathering stones", 1299, 3499],
  ["bypass secateurs", "Cutting", "two curved blades for clean cuts on live stems up to 20 mm", 1299, 4999],
  ["loppers", "Cutting", "long handles that give leverage on branches up to 45 mm", 2499, 7999],
  ["hedge shears", "Cutting", "wavy-edged blades that grip twigs while they cut", 1999, 5999],
  ["watering can", "Watering", "a long spout and a fine brass rose for seedlings", 999, 3999],
  ["hose reel", "Watering", "a wall-mounted reel with thirty metres of kink-free hose", 2999, 8999],
  ["garden kneeler", "Comfort", "a thick foam pad with handles to help you up again", 999, 3499],
  ["gardening gloves", "Comfort", "breathable backs and leather palms that keep thorns out", 599, 2499],
  ["wheelbarrow", "Carrying", "a ninety-litre tray on a puncture-proof tyre", 4999, 12999],
  ["compost bin", "Composting", "a lidded bin with a hatch at the bottom to take out finished compost", 2499, 7999],
  ["raised bed kit", "Growing", "untreated larch boards that slot together without tools", 3999, 12999],
  ["plant pot set", "Growing", "five frost-proof pots in graduated sizes", 1499, 5999],
  ["seed tray", "Growing", "a rigid tray with a clear lid for sowing indoors", 499, 1999],
  ["heated propagator", "Growing", "a thermostatic base that keeps seeds at an even warmth", 2999, 9999],
  ["cold frame", "Growing", "a timber frame with twin-wall lids for hardening off", 4999, 14999],
  ["bird feeder", "Wildlife", "a squirrel-resistant feeder with four feeding ports", 999, 3999],
  ["bug hotel", "Wildlife", "hollow stems and drilled logs where solitary bees nest", 1299, 3999],
  ["trellis panel", "Structures", "a pressure-treated panel for climbers against a wall", 1499, 4999],
  ["plant labels", "Sundries", "a pack of fifty reusable labels and a weatherproof pen", 299, 999],
  ["garden twine", "Sundries", "a tin of soft jute twine that will not cut into stems", 399, 1299],
];

function product(range: string, item: (typeof ITEMS)[number], n: number) {
  const [name, type, what, low, high] = item;
  const random = generator(hash(`${range}|${name}`));
  const price = Math.round((low + random() * (high - low)) / 100) * 100 - 1;
  const title = `${range} ${name}`;
  const description = [
    `The ${title} has ${what}.`,
    `Part of our ${range} range, chosen by the Fernhill team for gardens like yours and tested in the walled garden.`,
    random() < 0.5
      ? "Comes with a ten-year guarantee against defects in materials and workmanship."
      : "Made in Britain from responsibly sourced materials, and fully recyclable at the end of its life.",
    random() < 0.5 ? `Weighs ${Math.round(200 + random() * 4000)} g.` : "Ask at the till about gift wrapping.",
  ].join(" ");
  return {
    title,
    description,
    productType: type,
    vendor: range,
    tags: [type.toLowerCase(), range.toLowerCase()],
    status: "active" as const,
    options: [],
    variants: [{ options: [], sku: `FH-${String(n).padStart(4, "0")}`, price, stock: 5 + Math.floor(random() * 50) }],
  };
}

/**
 * `write` again when SQLite answers busy: the running server writes too (its job runner, its purge log), and a
 * transaction that read before the server's commit cannot then write (WAL's snapshot rule, which no busy timeout
 * waits out). Each call is one transaction, rolled back whole, so it can simply be run again.
 */
async function retrying<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const failed = error as { code?: unknown; cause?: { code?: unknown } };
      const code = failed.code ?? failed.cause?.code;
      if (attempt >= 50 || typeof code !== "string" || !code.startsWith("SQLITE_BUSY")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt));
    }
  }
}

async function main() {
  const url = process.env.DATABASE_URL;
  const email = process.env.BENCH_OWNER;
  if (!url || !email) throw new Error("DATABASE_URL and BENCH_OWNER are required");
  const handle = openDatabase(url);
  try {
    const { db } = handle;
    const owner = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const workspace = await retrying(() => createWorkspace(db, owner.id, CHAT_WORKSPACE));
    const actor = { userId: owner.id, ip: null };
    const pages = pagesOf(db, workspace.id);
    let words = 0;
    let republish = "";
    for (const [k, kind] of KINDS.entries()) {
      for (const [p, plant] of PLANTS.entries()) {
        const made = page(plant, kind);
        const created = await retrying(() =>
          pages.create(actor, { title: made.title, description: made.description, inNavigation: false }, made.blocks),
        );
        await retrying(() => pages.publish(actor, created.id));
        words += made.words;
        if (k === 5 && p === 25) republish = created.id;
      }
    }
    const products = productsOf(db, workspace.id);
    let n = 0;
    for (const item of ITEMS) {
      for (const range of RANGES) {
        const input = product(range, item, n++);
        await retrying(() => products.save(null, input, owner.id));
      }
    }
    const count = KINDS.length * PLANTS.length;
    console.log(
      JSON.stringify({
        workspaceId: workspace.id,
        slug: workspace.slug,
        pages: count,
        products: n,
        wordsPerPage: Math.round(words / count),
        republish,
      }),
    );
  } finally {
    await handle.close();
  }
}

await main();
