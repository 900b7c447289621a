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
          {/* Without JavaScript a streamed part stays hidden at the end of the page (only a script moves it):
              show those parts, result first, before the footer. React's markup is the only hook; the
              "without JavaScript" e2e specs fail if it changes. */}
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
