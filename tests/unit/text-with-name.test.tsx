// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { RelatedPages } from "@/components/RelatedPages";
import { SocialLinks } from "@/components/SocialLinks";
import { TextWithName } from "@/components/TextWithName";
import { Troubleshooting } from "@/components/Troubleshooting";
import type { Verdict } from "@/lib/probe-result";

// A domain name in a heading is one box that moves to the next line whole instead of breaking
// at its hyphens ("w-" / "down.example.com"), and if longer than a line breaks only between its
// labels' boxes; the layout itself is the CSS module's (looked at in Chromium at 320, 375 and
// 1280 px). Here: the name is those boxes, and the text is unchanged.

const NAME = "w-down.example-shop.com";
/** The boxes of the name in `element`: what the CSS keeps whole. */
const nameBoxes = (element: HTMLElement) => Array.from(element.querySelectorAll("span")).filter((span) => /name/.test(span.className));
const labelBoxes = (box: Element) => Array.from(box.children, (label) => [label.className.match(/label/)?.[0], label.textContent]);

describe("TextWithName", () => {
  it.each([
    ["in the middle", `Is ${NAME} down or not?`, 1],
    ["at the start", `${NAME} is down for everyone: what you can do`, 1],
    ["at the end", `Related pages about ${NAME}`, 1],
    ["twice", `${NAME} answers; ${NAME} is up`, 2],
    ["not at all", "Sources of this check", 0],
  ])("keeps the name whole %s, and the text exactly as it was", (_where, text, boxes) => {
    const { container } = render(<h2>{<TextWithName text={text} name={NAME} />}</h2>);
    const heading = container.querySelector("h2")!;

    expect(heading.textContent).toBe(text);
    expect(nameBoxes(heading).map((span) => span.textContent)).toEqual(Array(boxes).fill(NAME));
  });

  it("splits the name into label boxes before its dots, never at its hyphens", () => {
    const { container } = render(<h1>{<TextWithName text={`Is ${NAME} down or not?`} name={NAME} />}</h1>);

    expect(labelBoxes(nameBoxes(container)[0])).toEqual([
      ["label", "w-down"],
      ["label", ".example-shop"],
      ["label", ".com"],
    ]);
  });

  it("keeps what follows the name without a space in its last box, so '…' never starts a line", () => {
    const { container } = render(<p>{<TextWithName text={`Checking ${NAME}… now`} name={NAME} />}</p>);

    expect(container.querySelector("p")!.textContent).toBe(`Checking ${NAME}… now`);
    expect(labelBoxes(nameBoxes(container)[0]).at(-1)).toEqual(["label", ".com…"]);
  });

  it("leaves a text alone when the name is empty", () => {
    const { container } = render(<p>{<TextWithName text="Checking…" name="" />}</p>);
    expect(container.innerHTML).toBe("<p>Checking…</p>");
  });
});

describe("headings that name the site keep its name whole", () => {
  it.each<[Verdict | null]>([[null], ["online"], ["unknown"], ["regional"], ["global_outage"]])(
    "what to try, for a verdict of %s",
    (verdict) => {
      render(<Troubleshooting domain={NAME} verdict={verdict} />);
      const heading = screen.getByRole("heading", { level: 2 });

      // The name, and what follows it without a space ("’s", ":") in its last box.
      expect(nameBoxes(heading).map((span) => span.textContent!.startsWith(NAME))).toEqual([true]);
    },
  );

  it("related pages", () => {
    render(
      <RelatedPages
        domain={NAME}
        pages={[
          { title: "Outage", url: "https://news.example/o", publishedAt: new Date(0), excerpt: "", source: "import", sourceUrl: null },
        ]}
      />,
    );
    const heading = screen.getByRole("heading", { level: 2, name: `Related pages about ${NAME}` });

    // The name, and what follows it without a space ("’s", ":") in its last box.
    expect(nameBoxes(heading).map((span) => span.textContent!.startsWith(NAME))).toEqual([true]);
  });

  it("the owner's contacts", () => {
    render(
      <SocialLinks domain={NAME} links={[{ network: "x", url: "https://x.com/shop", handle: null, source: "import", sourceUrl: null }]} />,
    );
    const heading = screen.getByRole("heading", { level: 2, name: `Contact ${NAME}'s owner` });

    // The name, and what follows it without a space ("’s", ":") in its last box.
    expect(nameBoxes(heading).map((span) => span.textContent!.startsWith(NAME))).toEqual([true]);
  });
});
