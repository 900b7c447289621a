import { Fragment } from "react";
import styles from "./TextWithName.module.css";

/**
 * "w-down.example.com" as the boxes it may break between: "w-down", ".example", ".com". What
 * follows the name without a space ("…", "?", ":") joins its last box, so it never starts a line.
 */
function Name({ name, trailing }: { name: string; trailing: string }) {
  const labels = name.split(/(?=\.)/);
  return (
    <span className={styles.name}>
      {labels.map((label, index) => (
        <span key={index} className={styles.label}>
          {label}
          {index === labels.length - 1 ? trailing : null}
        </span>
      ))}
    </span>
  );
}

/**
 * `text` with each occurrence of the domain `name` kept whole (TextWithName.module.css says how).
 * No character is added, so copying the sentence gives the name exactly as written.
 */
export function TextWithName({ text, name }: { text: string; name: string }) {
  if (name === "") return text;
  return text.split(name).map((part, index) => {
    if (index === 0) return part;
    const [, trailing, rest] = /^(\S*)([\s\S]*)$/.exec(part)!;
    return (
      <Fragment key={index}>
        <Name name={name} trailing={trailing} />
        {rest}
      </Fragment>
    );
  });
}
