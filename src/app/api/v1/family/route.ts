import { getConfig } from "@/server/config";
import { familyBeaconAnswer } from "@/server/serving/family-beacon";

// The family of the address this request came from, for the browser check (serving/family-beacon.ts).
// Every method is answered here, so the others get the API's 405 rather than Next's empty one.
const answer = (request: Request) => familyBeaconAnswer(request, getConfig());

export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
