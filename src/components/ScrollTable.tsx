import type { ReactNode } from "react";

/**
 * A table that may be wider than the screen: it scrolls in its own box (focusable, so keyboard
 * users can scroll it too), named by its caption, with one header row of `columns`. Its row
 * groups (tbody) are the children.
 */
export function ScrollTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: string;
  columns: readonly string[];
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}
