// What a 404 for a name we cannot check says, the same whether the proxy answers it (a single
// path segment that is not a domain) or Next's not-found page does (any other unknown path).
export const NOT_A_DOMAIN_TITLE = "That is not a site we can check";
export const NOT_A_DOMAIN_HINT =
  "The address must be a public domain name such as example.com. IP addresses, local names such as localhost, and paths are not checked.";
