import { describe, expect, it } from "vitest";
import { accountFromHandle, accountFromUrl, accountSourceWords, handleWords, type SocialNetwork } from "@/lib/owner-accounts";

// What counts as the owner's account: a profile on one of ten networks, in one canonical form;
// never a share or intent link, a post, a search, a page of the network's own, or another host.

describe("accountFromUrl", () => {
  it.each<[string, SocialNetwork, string, string]>([
    ["https://twitter.com/github", "x", "https://x.com/github", "github"],
    ["http://www.x.com/github/?ref=footer#top", "x", "https://x.com/github", "github"],
    ["https://mobile.twitter.com/GitHub", "x", "https://x.com/GitHub", "GitHub"],
    ["https://www.facebook.com/GitHub", "facebook", "https://www.facebook.com/GitHub", "GitHub"],
    ["https://m.facebook.com/profile.php?id=12345&ref=x", "facebook", "https://www.facebook.com/profile.php?id=12345", "12345"],
    ["https://instagram.com/github/", "instagram", "https://www.instagram.com/github", "github"],
    ["https://www.linkedin.com/company/github/", "linkedin", "https://www.linkedin.com/company/github", "github"],
    ["https://www.youtube.com/@GitHub", "youtube", "https://www.youtube.com/@GitHub", "@GitHub"],
    [
      "https://youtube.com/channel/UC7c3Kb6jYCRj4JOHHZTxKsQ",
      "youtube",
      "https://www.youtube.com/channel/UC7c3Kb6jYCRj4JOHHZTxKsQ",
      "UC7c3Kb6jYCRj4JOHHZTxKsQ",
    ],
    ["https://github.com/github", "github", "https://github.com/github", "github"],
    ["https://mastodon.social/@github", "mastodon", "https://mastodon.social/@github", "@github@mastodon.social"],
    ["https://bsky.app/profile/github.com", "bluesky", "https://bsky.app/profile/github.com", "github.com"],
    ["https://www.threads.net/@github", "threads", "https://www.threads.com/@github", "@github"],
    ["https://www.tiktok.com/@github", "tiktok", "https://www.tiktok.com/@github", "@github"],
  ])("%s is %s's %s", (raw, network, url, handle) => {
    expect(accountFromUrl(raw)).toEqual({ network, url, handle });
  });

  it.each([
    ["a tweet intent", "https://twitter.com/intent/tweet?text=hi&url=https://shop.example"],
    ["a share link", "https://twitter.com/share?url=https://shop.example"],
    ["X's home", "https://x.com/home"],
    ["a post", "https://x.com/github/status/1234567890"],
    ["Facebook's sharer", "https://www.facebook.com/sharer/sharer.php?u=https://shop.example"],
    ["Facebook's sharer.php", "https://www.facebook.com/sharer.php?u=https://shop.example"],
    ["a Facebook dialog", "https://www.facebook.com/dialog/share?app_id=1"],
    ["LinkedIn's share", "https://www.linkedin.com/sharing/share-offsite/?url=https://shop.example"],
    ["LinkedIn's shareArticle", "https://www.linkedin.com/shareArticle?mini=true&url=x"],
    ["an Instagram post", "https://www.instagram.com/p/Cx1/"],
    ["a YouTube video", "https://www.youtube.com/watch?v=abc"],
    ["a GitHub repository", "https://github.com/github/docs"],
    ["a GitHub page of its own", "https://github.com/features"],
    ["a network off the list", "https://www.pinterest.com/github/"],
    ["a look-alike host", "https://twitter.com.evil.example/github"],
    ["a /@user path on a host that is no known Mastodon", "https://medium.com/@github"],
    ["javascript:", "javascript:alert(document.cookie)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["credentials in the address", "https://user:pass@x.com/github"],
    ["another port", "https://x.com:8443/github"],
    ["not an address", "github"],
  ])("%s is no account", (_what, raw) => {
    expect(accountFromUrl(raw)).toBeNull();
  });

  it("takes a /@user link on any host as Mastodon only when the source says it is one", () => {
    expect(accountFromUrl("https://social.example.org/@shop")).toBeNull();
    expect(accountFromUrl("https://social.example.org/@shop", { anyMastodonHost: true })).toEqual({
      network: "mastodon",
      url: "https://social.example.org/@shop",
      handle: "@shop@social.example.org",
    });
  });
});

describe("accountFromHandle", () => {
  it.each<[SocialNetwork, string, string | null]>([
    ["x", "@github", "https://x.com/github"],
    ["x", "github", "https://x.com/github"],
    ["x", "not a handle!", null],
    ["facebook", "GitHub", "https://www.facebook.com/GitHub"],
    ["facebook", "1234567", "https://www.facebook.com/profile.php?id=1234567"],
    ["instagram", "github", "https://www.instagram.com/github"],
    ["linkedin", "github", "https://www.linkedin.com/company/github"],
    ["youtube", "UC7c3Kb6jYCRj4JOHHZTxKsQ", "https://www.youtube.com/channel/UC7c3Kb6jYCRj4JOHHZTxKsQ"],
    ["github", "github", "https://github.com/github"],
    ["github", "features", null],
    ["mastodon", "github@social.example.org", "https://social.example.org/@github"],
    ["mastodon", "@github@mastodon.social", "https://mastodon.social/@github"],
    ["mastodon", "github", null],
    ["mastodon", "a@b@c.example", null],
    ["bluesky", "github.com", "https://bsky.app/profile/github.com"],
  ])("%s %s → %s", (network, value, url) => {
    expect(accountFromHandle(network, value)?.url ?? null).toBe(url);
  });
});

describe("accountSourceWords", () => {
  it.each([
    [["site", "https://www.github.com/", "github.com"], "listed on github.com's own page"],
    [["site", null, "github.com"], "listed on github.com's own page"],
    [["wikidata", "https://www.wikidata.org/wiki/Q364", "github.com"], "from Wikidata"],
    [["import", null, "github.com"], "added by our editors"],
  ] as const)("%j → %s", ([source, sourceUrl, domain], words) => {
    expect(accountSourceWords(source, sourceUrl, domain)).toBe(words);
  });
});

describe("handleWords", () => {
  it.each<[SocialNetwork, string | null, string | null]>([
    ["x", "github", "@github"],
    ["x", "@github", "@github"],
    ["github", "github", "@github"],
    ["mastodon", "@github@mastodon.social", "@github@mastodon.social"],
    ["linkedin", "github", "github"],
    ["youtube", "@GitHub", "@GitHub"],
    ["youtube", "UC7c3Kb6jYCRj4JOHHZTxKsQ", null],
    ["facebook", "12345", null],
    ["facebook", null, null],
  ])("%s %s → %s", (network, handle, words) => {
    expect(handleWords(network, handle)).toBe(words);
  });
});
