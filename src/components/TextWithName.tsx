import { Fragment } from "react";
import styles from "./TextWithName.module.css";

/** "w-down.example.com" as the boxes it may break between: "w-down", ".example", ".com". */
function Name({ name }: { name: string }) {
  const labels = name.split(/(?=\.)/);
  return (
    <span className={styles.name}>
      {labels.map((label, index) => (
        <span key={index} className={styles.label}>
          {label}
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
  return text.split(name).map((part, index) =>
    index === 0 ? (
      part
    ) : (
      <Fragment key={index}>
        <Name name={name} />
        {part}
      </Fragment>
    ),
  );
}
