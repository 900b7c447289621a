import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// Issue 21's goals for a page, as one step: no horizontal overflow at 320, 375 and 1280 px (wide
// tables scroll in their own .table-scroll box), no axe-core violation at 375 px, and full-page
// screenshots at 375 and 1280 px under the run's test-results/screenshots/, for each colour scheme.

export const WIDTHS = [320, 375, 1280] as const;

/** Nothing sticks out past the page's right edge, outside the scrollers made for it. */
export async function expectNoOverflow(page: Page, label: string) {
  const overflow = await page.evaluate(() => {
    const edge = document.documentElement.clientWidth;
    const outside = [...document.body.querySelectorAll("*")].filter(
      (element) => element.getBoundingClientRect().right > edge + 0.5 && !element.parentElement?.closest(".table-scroll"),
    );
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}${typeof element.className === "string" && element.className ? `.${element.className.trim().split(/\s+/).join(".")}` : ""}`;
    return { scrollWidth: document.documentElement.scrollWidth, edge, outside: outside.slice(0, 5).map(name) };
  });
  expect(overflow, label).toEqual({ scrollWidth: overflow.edge, edge: overflow.edge, outside: [] });
}

export async function expectNoAxeViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    label,
  ).toEqual([]);
}

/**
 * The checks at every width and scheme; screenshots named `<name>-<width>-<scheme>.png`. The
 * cookie notice is accepted first: fixed to the viewport, it would cover the parts the pictures
 * are for (pages-quality.spec.ts checks the pages with it).
 */
export async function checkPageAndScreenshot(
  page: Page,
  name: string,
  outputDir: string,
  schemes: readonly ("light" | "dark")[] = ["light"],
) {
  const notice = page.getByRole("complementary", { name: "Cookie notice" });
  if (await notice.isVisible()) {
    // OK is a server action that sets a cookie, so Next renders the page again: the notice goes
    // with the action's answer, and the document's <title> is gone for a moment until the new
    // render's metadata lands (axe then found no title once in CI). Wait for it to be back.
    const title = await page.title();
    await notice.getByRole("button", { name: "OK" }).click();
    await expect(notice).toBeHidden();
    await expect(page).toHaveTitle(title);
  }
  for (const colorScheme of schemes) {
    await page.emulateMedia({ colorScheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width < 600 ? 812 : 800 });
      const label = `${name}, ${colorScheme}, ${width} px`;
      await expectNoOverflow(page, label);
      if (width === 375) await expectNoAxeViolations(page, label);
      if (width !== 320)
        await page.screenshot({ path: join(outputDir, "screenshots", `${name}-${width}-${colorScheme}.png`), fullPage: true });
    }
  }
}
