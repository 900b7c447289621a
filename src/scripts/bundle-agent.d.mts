/** Bundles the tester agent into one ES module; resolves to the file written. */
export function bundleAgent(outfile?: string): Promise<string>;
