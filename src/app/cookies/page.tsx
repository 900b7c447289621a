import type { Metadata } from "next";

export const metadata: Metadata = {
  title: "Cookies",
  description: "Which cookies downcheck sets and why.",
  alternates: { canonical: "/cookies" },
};

export default function CookiesPage() {
  return (
    <article className="prose">
      <h1>Cookies</h1>
      <p>
        downcheck sets only the cookies it needs to work. It sets no advertising or tracking
        cookies and loads nothing from other sites. By continuing to browse you accept these
        cookies; you can delete them in your browser at any time.
      </p>
      <table>
        <caption>Cookies set by downcheck</caption>
        <thead>
          <tr>
            <th scope="col">Cookie</th>
            <th scope="col">Why</th>
            <th scope="col">Kept for</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {/* Breaks after the underscores on a narrow screen, not inside a word. */}
              <code>
                downcheck_<wbr />
                cookies_<wbr />
                ok
              </code>
            </td>
            <td>Remembers that you dismissed the cookie notice, so it is not shown again.</td>
            <td>1 year</td>
          </tr>
          <tr>
            <td>
              <code>
                downcheck_<wbr />
                visitor
              </code>
            </td>
            <td>
              A random, signed visitor identifier so that you can rate a site once per day and
              report a problem once per 15 minutes. It holds no personal data.
            </td>
            <td>1 year</td>
          </tr>
        </tbody>
      </table>
    </article>
  );
}
