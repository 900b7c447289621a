import "server-only";

export { ContentFileError, importContent, parseContentFile } from "./content/import";
export { askSitesToRefresh, CONTENT_REFRESH_PURPOSE, REFRESH_MAX_DOMAINS } from "./content/site-refresh";
export { DISCOVERIES_PER_SITE_PER_HOUR, NO_OWNER_DISCOVERIES, createOwnerDiscoveries } from "./discovery/discoveries";
export type { OwnerDiscoveries } from "./discovery/discoveries";
export { createSiteClient } from "./discovery/site-fetch";
export { createWikidataClient } from "./discovery/wikidata";
export { createOfficialFetcher } from "./official/fetch-json";
export { NO_OFFICIAL_SERVICE, afterRoundOfficial, createOfficialService } from "./official/service";
export type { OfficialService } from "./official/service";
export { storedOfficial } from "./official/discover";
