import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { CookieNotice } from "@/components/CookieNotice";
import { CONSENT_HEAD_SCRIPT, CONSENT_STYLESHEET_PATH } from "@/lib/cookies";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "downcheck — is it down for everyone, or just me?", template: "%s · downcheck" },
  description:
    "Check whether a website is down for everyone or just for you, from testers in several locations.",
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
        <header className="site-header">
          <Link href="/" className="brand">
            down<span>check</span>
          </Link>
        </header>
        <main id="main">{children}</main>
        <footer className="site-footer">
          <p>
            downcheck checks sites from several testers. <Link href="/cookies">Cookies</Link>
          </p>
        </footer>
        <CookieNotice />
        <noscript>
          {/* What only a script can finish (the browser's own check, the live view) is not shown
              as under way; a page still checking shows its answers in a frame instead (page.tsx). */}
          <style>{`[data-loading],.live-check{display:none}`}</style>
        </noscript>
      </body>
    </html>
  );
}
