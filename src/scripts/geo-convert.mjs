// @ts-check
// `node src/scripts/geo-convert.mjs <table file> <csv file>...`: converts ip-location-db's ASN CSVs
// into the network table, in a child process of the app so the conversion's garbage and CPU stay
// out of the server. Prints the row counts as JSON.
import { convertAsnCsv, writeFileAtomically } from "../server/crowd/networks/asn-convert.mjs";

const [table, ...csvFiles] = process.argv.slice(2);
if (!table || csvFiles.length === 0) {
  console.error("usage: node src/scripts/geo-convert.mjs <table file> <csv file>...");
  process.exit(2);
}
try {
  const { bytes, ipv4Ranges, ipv6Ranges, rejected } = await convertAsnCsv(csvFiles);
  await writeFileAtomically(table, bytes);
  console.log(JSON.stringify({ ipv4Ranges, ipv6Ranges, rejected }));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
