import type { Metadata } from "next";

export const metadata: Metadata = {
  title: "Cookies",
  description: "Which cookies downcheck sets and why, and what your browser asks other sites.",
  alternates: { canonical: "/cookies" },
};

export default function CookiesPage() {
  return (
    <article className="prose">
      <h1>Cookies</h1>
      <p>
        downcheck sets the two cookies of its own listed below: one remembers that you dismissed the cookie notice, one lets you rate a site
        once a day and report a problem once every 15 minutes. It sets no advertising or tracking cookies. By continuing to browse you
        accept these cookies; you can delete them in your browser at any time.
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
                downcheck_
                <wbr />
                cookies_
                <wbr />
                ok
              </code>
            </td>
            <td>Remembers that you dismissed the cookie notice, so it is not shown again.</td>
            <td>1 year</td>
          </tr>
          <tr>
            <td>
              <code>
                downcheck_
                <wbr />
                visitor
              </code>
            </td>
            <td>
              A random, signed visitor identifier so that you can rate a site once per day and report a problem once per 15 minutes. It
              holds no personal data.
            </td>
            <td>1 year</td>
          </tr>
        </tbody>
      </table>
      <h2>What your browser asks other sites</h2>
      <p>
        Our pages load their scripts, styles and pictures from downcheck only. One thing goes elsewhere: on a status page, your browser
        itself asks the site being checked for its home page, once, the way our testers reached it (<code>https://</code> or{" "}
        <code>http://</code>). It sends no cookies and does not read the answer; whether an answer came tells you whether the site answers
        for you as well as for our testers. The site sees that request from your address, as if you had opened it. Without JavaScript
        nothing is asked, and a page served over HTTPS does not ask a site that answers only plain HTTP (your browser would refuse), and
        says so.
      </p>
    </article>
  );
}
