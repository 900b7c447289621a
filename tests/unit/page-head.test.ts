import { describe, expect, it } from "vitest";
import { createHeadLearner, sharedHead } from "../../src/scripts/page-head.mjs";

// What the front door may send before Next renders a first visit's page: the beginning every
// status page shares, never a byte that names a domain.

const HEAD = '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/_next/static/a.css"/><script src="/_next/static/b.js" async=""></script>';
const page = (domain: string) => Buffer.from(`${HEAD}<title>Is ${domain} down?</title></head><body><h1>${domain}</h1></body></html>`);

describe("sharedHead", () => {
  it("keeps what two pages share up to the title", () => {
    expect(sharedHead(page("example.com"), page("github.com")).toString()).toBe(HEAD);
  });

  it("stops before the title even when the domains begin alike", () => {
    expect(sharedHead(page("example-one.com"), page("example-two.com")).toString()).toBe(HEAD);
  });

  it("cuts back to the last whole tag", () => {
    const a = Buffer.from(`${HEAD}<meta name="a" content="one"/>`);
    const b = Buffer.from(`${HEAD}<meta name="a" content="two"/>`);
    expect(sharedHead(a, b).toString()).toBe(HEAD);
  });

  it("never runs past the end of the head, even for two identical pages", () => {
    const same = Buffer.from(`${HEAD}</head><body>error</body></html>`);
    expect(sharedHead(same, same).toString()).toBe(HEAD);
  });

  it("is empty for anything that is not an HTML document", () => {
    expect(sharedHead(Buffer.from('{"a":1,"b":2}'), Buffer.from('{"a":1,"b":3}')).length).toBe(0);
    expect(sharedHead(Buffer.alloc(0), page("example.com")).length).toBe(0);
  });
});

describe("createHeadLearner", () => {
  it("learns from two different pages, with the page headers of the first", () => {
    const learner = createHeadLearner();
    learner.observe("/example.com", page("example.com"), { link: "</a.css>; rel=preload", "set-cookie": "x=1", vary: "rsc" });
    expect(learner.head().length).toBe(0);
    // The same page again teaches nothing.
    learner.observe("/example.com", page("example.com"), {});
    expect(learner.head().length).toBe(0);
    learner.observe("/github.com", page("github.com"), {});
    expect(learner.head().toString()).toBe(HEAD);
    expect(learner.headers()).toEqual({ link: "</a.css>; rel=preload", vary: "rsc" });
  });

  it("forgets the head, and learns it again from two new pages", () => {
    const learner = createHeadLearner();
    learner.observe("/a.com", page("a.com"), {});
    learner.observe("/b.com", page("b.com"), {});
    learner.forget();
    expect(learner.head().length).toBe(0);
    learner.observe("/c.com", page("c.com"), {});
    expect(learner.head().length).toBe(0);
    learner.observe("/d.com", page("d.com"), {});
    expect(learner.head().toString()).toBe(HEAD);
  });
});
