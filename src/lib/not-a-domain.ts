// What a 404 for a name we cannot check says, the same whether the proxy answers it (a single
// path segment that is not a domain) or Next's not-found page does (any other unknown path).
export const NOT_A_DOMAIN_TITLE = "That is not a site we can check";
export const NOT_A_DOMAIN_HINT =
  "We check public domain names such as example.com (paste a whole address and we take its host). IP addresses and local names such as localhost are not checked.";
