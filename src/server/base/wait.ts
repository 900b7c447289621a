import "server-only";

/** `work`'s value, or null when it takes longer than `ms`; the work itself goes on and finishes unseen. */
export function waitAtMost<T>(work: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
