// Seeds a running e2e app's database with related pages and the owner's accounts for test names
// (the content import takes public names only; routed test names are the tests' own). Run with
// tsx, like seed-incident.ts:
//   DATABASE_URL=file:… tsx --conditions=react-server tests/e2e/support/seed-content.ts <domain>…
// Each domain gets three related pages (21–23 November 2026) and an X and a Facebook account.

async function main() {
  const domains = process.argv.slice(2);
  if (domains.length === 0) throw new Error("usage: seed-content.ts <domain>…");
  const { closeDb, getDb } = await import("@/server/db");
  const db = getDb();
  for (const domain of domains) {
    const site = await db.site.upsert({ where: { domain }, update: {}, create: { domain, displayName: domain } });
    const handle = domain.split(".")[0];
    for (const n of [1, 2, 3]) {
      await db.relatedPage.create({
        data: {
          siteId: site.id,
          title: `What happened to ${domain}, part ${n}`,
          url: `https://news.example/${domain}/${n}`,
          publishedAt: new Date(Date.UTC(2026, 10, 20 + n)),
          excerpt: `A short excerpt about ${domain}, number ${n}, long enough to wrap on a phone's narrow screen.`,
        },
      });
    }
    await db.socialLink.create({ data: { siteId: site.id, network: "x", url: `https://x.com/${handle}` } });
    await db.socialLink.create({ data: { siteId: site.id, network: "facebook", url: `https://www.facebook.com/${handle}` } });
  }
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
