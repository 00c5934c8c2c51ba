/** Integration and browser tests run the production build; build it once if it is missing or stale. */
export default async function setup() {
  const { buildIsCurrent } = await import("../scripts/build-state.mjs");
  if (buildIsCurrent()) return;
  const { buildAll } = await import("../scripts/build.mjs");
  await buildAll({ quiet: true });
}
