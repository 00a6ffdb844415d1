// The automated accessibility check of a UI page: axe-core against WCAG 2 A and AA, in the page as it
// is drawn now. A serious or critical violation fails the test with each one spelled out.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_2_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const FAILING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);
/**
 * WCAG 2.2's minimum target size (24 px) is checked everywhere but on the timeline's range handles and playhead:
 * narrower grips that overlap at the ends of the range, which WCAG excepts because each has a full-size
 * equivalent (Set start / Set end, the I and O keys, a click on the track), which the rule cannot see.
 */
const TARGET_SIZE_EXCEPTED = ['.timeline__handle', '.timeline__playhead'];

/**
 * Runs axe on the page and throws when it finds a serious or critical violation. `context` names the page
 * or state checked ("library, sessions"), for the failure message.
 */
export async function expectNoSeriousViolations(page: Page, context: string): Promise<void> {
  const everyRule = await new AxeBuilder({ page }).withTags(WCAG_2_AA_TAGS).disableRules(['target-size']).analyze();
  const targetSize = TARGET_SIZE_EXCEPTED.reduce(
    (builder, grip) => builder.exclude(grip),
    new AxeBuilder({ page }).withRules(['target-size']),
  );
  const violations = [...everyRule.violations, ...(await targetSize.analyze()).violations];
  const serious = violations.filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''));
  if (serious.length === 0) return;
  const lines = serious.flatMap((violation) => [
    `${violation.id} (${violation.impact}): ${violation.help}`,
    ...violation.nodes.map((node) => `  at ${node.target.join(' ')}: ${node.failureSummary?.replace(/\s*\n\s*/g, ' ') ?? ''}`),
  ]);
  throw new Error(`accessibility of ${context}: ${serious.length} serious or critical violation(s)\n${lines.join('\n')}`);
}

/**
 * The WCAG contrast ratio (1 to 21) of the text colour of the element `selector` finds on its own background
 * colour, both as the browser computes them (opaque colours: an element drawn on its own background, as a button is).
 */
export async function textContrast(page: Page, selector: string): Promise<number> {
  const colours = (await page.evaluate(`(() => {
    const style = getComputedStyle(document.querySelector(${JSON.stringify(selector)}));
    return [style.color, style.backgroundColor];
  })()`)) as [string, string];
  const [lighter, darker] = colours.map(relativeLuminance).sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** WCAG's relative luminance of a computed `rgb(r, g, b)` colour. */
function relativeLuminance(colour: string): number {
  const [red, green, blue] = (colour.match(/[\d.]+/g) ?? []).slice(0, 3).map((channel) => {
    const value = Number(channel) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * red + 0.7152 * green + 0.0722 * blue;
}
