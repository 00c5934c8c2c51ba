/**
 * The demo's pages (issue 13's "Demo"): Harbor Bakery's home page (hero, text, gallery, call to action,
 * questions), a menu, its story, and the header and footer links, all published through the same module
 * functions the console uses. `media` holds the demo's images by name (files' `seedDemoMedia`); a missing one
 * just leaves its block out.
 */
import type { Db } from "~db/client";
import type { MediaItem } from "~/modules/files/media.server";
import type { BlockInput } from "./blocks";
import { navigationOf } from "./navigation.server";
import { pagesOf, type PageActor } from "./pages.server";

const SEED: PageActor = { userId: null, ip: null };

export async function seedDemoPages(db: Db, workspaceId: string, media: Record<string, MediaItem>): Promise<void> {
  const workspace = await db
    .selectFrom("workspaces")
    .select(["slug"])
    .where("id", "=", workspaceId)
    .executeTakeFirstOrThrow();
  const site = `/${workspace.slug}`;
  const pages = pagesOf(db, workspaceId);
  const nav = navigationOf(db, workspaceId);
  const image = (name: string) => media[name]?.id ?? null;
  const gallery = ["loaves", "pastries", "cafe"].flatMap((n) => (media[n] ? [media[n].id] : []));

  const home: BlockInput[] = [
    {
      type: "hero",
      heading: "Bread worth getting up for",
      text: "Sourdough, pastries and good coffee, baked before sunrise by the harbour since 2009.",
      imageId: image("hero"),
      ctaLabel: "See what we bake",
      ctaHref: `${site}/menu`,
    },
    {
      type: "richText",
      markdown: [
        "## Baked this morning, gone by the afternoon",
        "",
        "Every loaf starts the evening before: a slow, cold rise for our **country sourdough**, butter folded by",
        "hand into the croissant dough, and a few seasonal bakes when the market has something good.",
        "",
        "We bake small batches all morning, so come early for the best choice — or [order ahead](" +
          `${site}/contact) and we will keep it for you.`,
      ].join("\n"),
    },
    ...(gallery.length ? [{ type: "gallery", imageIds: gallery } as BlockInput] : []),
    {
      type: "cta",
      heading: "A cake for the big day?",
      text: "Birthdays, weddings, a Tuesday that needs it: tell us the date and the flavour, and we bake it fresh.",
      label: "Order a cake",
      href: `${site}/contact`,
    },
    {
      type: "faq",
      heading: "Good to know",
      items: [
        {
          question: "Do you bake anything gluten-free?",
          answer:
            "Our almond and orange cake is gluten-free, and on Saturdays we bake a buckwheat loaf. Everything is made in one kitchen, so we cannot promise it is free of traces.",
        },
        {
          question: "Can I reserve bread?",
          answer: "Yes — send us a message by 4 pm and your order waits for you the next morning.",
        },
        {
          question: "Is there seating, and are dogs welcome?",
          answer:
            "We have twelve seats inside and a bench by the water. Well-behaved dogs are very welcome; there is always a bowl of water by the door.",
        },
      ],
    },
  ];

  const menu: BlockInput[] = [
    {
      type: "richText",
      markdown: [
        "## Breads",
        "",
        "| Bread | Price |",
        "| --- | --- |",
        "| Country sourdough (800 g) | £5.50 |",
        "| Seeded rye | £5.80 |",
        "| Baguette | £2.60 |",
        "| Saturday buckwheat loaf | £6.90 |",
        "",
        "## Pastries",
        "",
        "- **Butter croissant** — £2.40",
        "- **Cardamom bun** — £3.20",
        "- **Pain au chocolat** — £2.80",
        "- **Seasonal fruit danish** — £3.50",
        "",
        "## Coffee",
        "",
        "Espresso drinks with beans from a roaster two streets away; oat and whole milk. Filter coffee on weekend mornings.",
      ].join("\n"),
    },
    ...(media.pastries
      ? [{ type: "image", imageId: media.pastries.id, caption: "Cardamom buns, fresh out of the oven." } as BlockInput]
      : []),
  ];

  const story: BlockInput[] = [
    {
      type: "richText",
      markdown: [
        "Harbor Bakery began in 2009 with one oven, a borrowed mixer and a sourdough starter older than the",
        "building. Mara baked; Tom sold bread from the window to fishermen coming off the early boats.",
        "",
        "> Good bread takes time. We give it all the time it needs.",
        "",
        "Today a team of nine bakes every day of the week except Monday. We buy our flour from a mill an hour",
        "inland, our butter from the dairy across the bay, and we compost what we do not sell.",
      ].join("\n"),
    },
    ...(media.team
      ? [{ type: "image", imageId: media.team.id, caption: "The morning shift, at 5 am." } as BlockInput]
      : []),
    {
      type: "cta",
      heading: "Come and say hello",
      text: "We are by the harbour, open every morning but Monday.",
      label: "Find us",
      href: `${site}/contact`,
    },
  ];

  const homePage = await pages.create(
    SEED,
    { title: "Home", description: "Sourdough, pastries and coffee by the harbour, baked every morning since 2009." },
    home,
  );
  const menuPage = await pages.create(
    SEED,
    { title: "What we bake", slug: "menu", description: "Our breads, pastries and coffee, with prices." },
    menu,
  );
  const storyPage = await pages.create(
    SEED,
    {
      title: "Our story",
      slug: "about",
      description: "How a harbour bakery with one oven became a neighbourhood habit.",
    },
    story,
  );
  for (const page of [homePage, menuPage, storyPage]) await pages.publish(SEED, page.id);

  // The header lists the pages (added when they were created), then the contact page; the footer, extras.
  await nav.add(SEED, { area: "header", label: "Visit us", pageId: null, url: `${site}/contact` });
  await nav.add(SEED, { area: "footer", label: "Our story", pageId: storyPage.id, url: null });
  await nav.add(SEED, { area: "footer", label: "Instagram", pageId: null, url: "https://instagram.com/harborbakery" });
  await nav.add(SEED, { area: "footer", label: "Work with us", pageId: null, url: "mailto:jobs@harborbakery.example" });
}
