// @ts-check
// `node src/scripts/geo-convert.mjs <table file> <csv file>...`: converts ip-location-db's ASN
// CSVs into the network table and writes it whole (server/geo/asn-convert.mjs). The app runs
// this in a child process the first time it needs the npm copy's table (network-data.ts): the
// conversion's garbage (~50 MB of V8 heap that a server would keep as resident memory) and its
// second of CPU then stay out of the server. Prints the row counts as JSON.
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
