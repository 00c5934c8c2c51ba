/**
 * The accessibility bar of every page (DESIGN conventions): no serious or critical WCAG 2 A/AA violation
 * found by axe. The page and axe's script are passed in, so the desktop package's tests use this with their
 * own playwright-core and axe-core.
 */
export interface AxePage {
  addScriptTag(options: { path: string }): Promise<unknown>;
  evaluate<R>(pageFunction: () => R | Promise<R>): Promise<R>;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

export async function seriousViolations(page: AxePage, axeScript: string): Promise<string[]> {
  await page.addScriptTag({ path: axeScript });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}
