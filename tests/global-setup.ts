/** Integration and browser tests run the production build; build it once if it is missing or stale. */
export default async function setup() {
  // @ts-expect-error plain ESM helpers shared with npm start, no types
  const { buildIsCurrent } = await import("../scripts/build-state.mjs");
  if (buildIsCurrent()) return;
  // @ts-expect-error see above
  const { buildAll } = await import("../scripts/build.mjs");
  await buildAll({ quiet: true });
}
