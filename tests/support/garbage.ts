import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// Memory tests ask one question: once nothing of ours refers to an object, does the garbage
// collector take it? V8 hands out `gc` only when the flag is set; a context made after setting
// it gets the function.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * True when `ref`'s object is gone after repeated full collections. Some holders only let go
 * in a later pass (finalizers and weak callbacks run as tasks between collections), and a
 * WeakRef keeps its object until the job that dereferenced it ends, so each pass starts on a
 * new turn of the event loop.
 */
export async function isCollected(ref: WeakRef<object>, passes = 10): Promise<boolean> {
  for (let i = 0; i < passes; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
    if (ref.deref() === undefined) return true;
  }
  return false;
}
