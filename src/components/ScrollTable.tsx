import type { ReactNode } from "react";

/**
 * A table that may be wider than the screen: it scrolls in its own box (focusable, so keyboard
 * users can scroll it too), named by its caption unless given a `label`, with one header row of
 * `columns`. Its row groups (tbody) are the children. The caption is for screen readers only
 * unless `captionShown`.
 */
export function ScrollTable({
  caption,
  columns,
  className,
  label = caption,
  captionShown = false,
  children,
}: {
  caption: string;
  columns: readonly string[];
  className?: string;
  label?: string;
  captionShown?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={label}>
      <table className={className}>
        <caption className={captionShown ? undefined : "visually-hidden"}>{caption}</caption>
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
