import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { CookieNotice } from "@/components/CookieNotice";
import { CONSENT_HEAD_SCRIPT, CONSENT_STYLESHEET_PATH } from "@/lib/cookies";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "downcheck — is it down for everyone, or just me?", template: "%s · downcheck" },
  description: "Check whether a website is down for everyone or just for you, from testers in several locations.",
  icons: { icon: "/favicon.svg" },
};

export const viewport: Viewport = {
  colorScheme: "light dark",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <script dangerouslySetInnerHTML={{ __html: CONSENT_HEAD_SCRIPT }} />
        {/* Without JavaScript the visitor's own stylesheet hides a dismissed notice instead. */}
        <noscript>
          <link rel="stylesheet" href={CONSENT_STYLESHEET_PATH} />
        </noscript>
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {/* In the page's flow, above it: fixed to the viewport it covered what a visitor reads. */}
        <CookieNotice />
        <header className="site-header">
          <Link href="/" className="brand">
            down<span>check</span>
          </Link>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">
          <p>
            downcheck checks sites from several testers. <Link href="/methodology">How we decide</Link> ·{" "}
            <Link href="/cookies">Cookies</Link>
          </p>
        </footer>
        <noscript>
          {/* Without JavaScript, React cannot move a streamed part into its place (a script does
              that): it stays in a hidden element at the end of the page, for a cached page too.
              Shown there, ordered (the result's part first: a cached page keeps the other sections
              in an earlier part) and before the footer, it reads in order: the result and the
              sections under the page's heading, where the no-script live view (page.tsx) stood,
              which goes once the result is in. What only a script can finish (the browser's own check, the
              live view) is not shown as under way. React's markup is the only hook here; the e2e
              specs "without JavaScript" fail if it changes. */}
          <style>
            {`[data-loading],.live-check{display:none}body{display:flex;flex-direction:column}body>header,body>main,body>footer{box-sizing:border-box;width:100%}` +
              `body>div[hidden][id^="S:"]{display:block;order:2;box-sizing:border-box;width:100%;max-width:64rem;margin:0 auto;padding:0 1rem}` +
              `body>div[id^="S:"]:has(>.result){order:1}.site-footer{order:3}` +
              `body:has(>div[id^="S:"] .result) .no-script-live{display:none}`}
          </style>
        </noscript>
      </body>
    </html>
  );
}
