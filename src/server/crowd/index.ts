import "server-only";

export { submitReport } from "./submit-report";
export type { CrowdServices, ReportFields } from "./submit-report";
export { visitorAddress, visitorBucket, visitorUsesHttps } from "./visitor/address";
export { currentVisitor, getVisitorSecret } from "./visitor/identity";
export { internalToken, isInternalAuthorization } from "./visitor/identity";
